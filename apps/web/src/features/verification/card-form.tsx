import { valibotResolver } from '@hookform/resolvers/valibot';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type * as v from 'valibot';
import { cardBody, cardBrand, cardCvvProblem, cardExpiryProblem, type CardBody } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { verificationApi } from '../../api/verification';
import { applyServerErrors } from '../../lib/form-errors';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import { ResultPanel } from './result-panel';

const FIELDS = ['card_number', 'cardholder_name', 'expiry_month', 'expiry_year', 'cvv'] as const;

const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

/** spec 01 §3 "Card form", §5: all five fields required, months 01–12, years from this year for 10 years, CVV ≤ 4. */
export function CardForm({ onDone }: { onDone: () => void }) {
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: 11 }, (_, i) => String(thisYear + i));
  const [result, setResult] = useState<{ status: string; message: string } | null>(null);
  const form = useForm<CardBody, unknown, v.InferOutput<typeof cardBody>>({
    resolver: valibotResolver(cardBody),
    defaultValues: { card_number: '', cardholder_name: '', expiry_month: '', expiry_year: '', cvv: '' },
  });
  const { errors } = form.formState;
  const submit = useMutation({
    mutationFn: (card: CardBody) => verificationApi.creditCard(card),
    onSuccess: (answer) => {
      toast.success('Credit card verification initiated!');
      setResult({ status: answer.status, message: answer.message });
      form.reset();
      onDone();
    },
    onError: (error) => {
      if (!applyServerErrors(error, form.setError, FIELDS))
        toast.error(errorMessage(error, 'Verification failed'));
    },
  });

  const onSubmit = form.handleSubmit((card) => {
    const expiry = cardExpiryProblem(card.expiry_month, card.expiry_year, new Date());
    if (expiry) {
      form.setError(expiry.startsWith('Expiry month') ? 'expiry_month' : 'expiry_year', { message: expiry });
      return;
    }
    const cvv = cardCvvProblem(card.cvv, cardBrand(card.card_number));
    if (cvv) {
      form.setError('cvv', { message: cvv });
      return;
    }
    submit.mutate({
      ...card,
      expiry_month: String(card.expiry_month).padStart(2, '0'),
      expiry_year: String(card.expiry_year),
    });
  });

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">
        The card number and security code are checked on the server and never stored: only the brand and the
        last four digits are kept. A card on its own does not prove your age until its issuer confirms it.
      </p>
      <form className="space-y-4" noValidate onSubmit={onSubmit}>
        <TextField
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          maxLength={23}
          error={errors.card_number?.message}
          {...form.register('card_number')}
        />
        <TextField
          label="Cardholder name"
          autoComplete="cc-name"
          error={errors.cardholder_name?.message}
          {...form.register('cardholder_name')}
        />
        <div className="grid grid-cols-3 gap-4">
          <SelectField
            label="Expiry month"
            autoComplete="cc-exp-month"
            error={errors.expiry_month?.message}
            {...form.register('expiry_month')}
          >
            <option value="">MM</option>
            {MONTHS.map((month) => (
              <option key={month} value={month}>
                {month}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Expiry year"
            autoComplete="cc-exp-year"
            error={errors.expiry_year?.message}
            {...form.register('expiry_year')}
          >
            <option value="">YYYY</option>
            {years.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </SelectField>
          <TextField
            label="CVV"
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={4}
            error={errors.cvv?.message}
            {...form.register('cvv')}
          />
        </div>
        <Button type="submit" busy={submit.isPending}>
          Verify card
        </Button>
      </form>
      {result ? (
        <ResultPanel status={result.status} title="Card check recorded" message={result.message} />
      ) : null}
    </div>
  );
}
