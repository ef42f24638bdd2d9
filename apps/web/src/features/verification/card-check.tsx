import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import type { SiteConfig } from '../../api/site';
import { verificationApi, type VerificationAnswer } from '../../api/verification';
import { Button } from '../../components/ui/button';
import { TextField, inputClass } from '../../components/ui/field';
import { toast } from '../../lib/toast';
import { ResultPanel } from './result-panel';
import { loadStripeJs, type StripeCardElement, type StripeJs } from './stripe-js';

type CardCheckConfig = NonNullable<SiteConfig['capabilities']['card_check']>;

/** Stripe.js refused the card details before asking the issuer (a typo): its message is for the person. */
class CardEntryError extends Error {}

/**
 * The credit-card age check (spec 01 §2 card form; issue 25 item 1). The card number, expiry and security code are
 * typed into Stripe's card Element and go to Stripe, never to this appliance; the issuer confirms the card (3-D
 * Secure where it asks). Only a credit card proves an age, so the page says so before anyone types a number.
 */
export function CardCheck({ config, onDone }: { config: CardCheckConfig; onDone: () => void }) {
  const nameId = useId();
  const mountPoint = useRef<HTMLDivElement>(null);
  const stripe = useRef<StripeJs | null>(null);
  const card = useRef<StripeCardElement | null>(null);
  const [ready, setReady] = useState(false);
  const [loadProblem, setLoadProblem] = useState<string | null>(null);
  const [cardState, setCardState] = useState<{ complete: boolean; error: string | null }>({
    complete: false,
    error: null,
  });
  const [name, setName] = useState('');
  const [problems, setProblems] = useState<{ name?: string; card?: string }>({});
  const [result, setResult] = useState<VerificationAnswer | null>(null);

  useEffect(() => {
    let cancelled = false;
    loadStripeJs(config.stripe_js_url).then(
      (Stripe) => {
        if (cancelled || !mountPoint.current) return;
        stripe.current = Stripe(config.publishable_key);
        const element = stripe.current.elements().create('card', { hidePostalCode: true });
        element.on('change', (event) =>
          setCardState({ complete: event.complete, error: event.error?.message ?? null }),
        );
        element.mount(mountPoint.current);
        card.current = element;
        setReady(true);
      },
      () => setLoadProblem('The card form could not be loaded. Check your connection and reload the page.'),
    );
    return () => {
      cancelled = true;
      card.current?.destroy();
      card.current = null;
    };
  }, [config.publishable_key, config.stripe_js_url]);

  const check = useMutation({
    mutationFn: async () => {
      const started = await verificationApi.startCardCheck();
      toast.success(started.message);
      const confirmed = await (stripe.current as StripeJs).confirmCardSetup(started.client_secret, {
        payment_method: { card: card.current as StripeCardElement, billing_details: { name: name.trim() } },
      });
      // A mistyped card never reached the issuer: say so, and leave the check open for a corrected attempt.
      if (confirmed.error?.type === 'validation_error') {
        throw new CardEntryError(confirmed.error.message ?? 'Please check the card details.');
      }
      // A decline or a failed 3-D Secure challenge is decided (and recorded) by the server like any other answer.
      return verificationApi.finishCardCheck(confirmed.setupIntent?.id ?? started.setup_intent_id);
    },
    onSuccess: (answer) => {
      setResult(answer);
      onDone();
    },
    onError: (error) =>
      toast.error(
        error instanceof CardEntryError ? error.message : errorMessage(error, 'Verification failed'),
      ),
  });

  const cardProblem = problems.card ?? cardState.error;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = {
      ...(name.trim() ? {} : { name: 'Cardholder name is required' }),
      ...(cardState.complete ? {} : { card: cardState.error ?? 'Card number is required' }),
    };
    setProblems(found);
    if (!found.name && !found.card) check.mutate();
  };

  return (
    <form className="space-y-4" noValidate onSubmit={submit}>
      <p className="text-sm text-slate-700">
        Your card issuer confirms that a <strong>credit card</strong> in your name is valid; only credit cards
        prove an age, because debit and prepaid cards are issued to under-18s too. Nothing is charged. The
        card details go straight to our payment provider, Stripe: this service never sees the card number or
        the security code.
      </p>
      <TextField
        id={nameId}
        label="Cardholder name"
        autoComplete="cc-name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={problems.name}
      />
      {/* Stripe's card Element (number, expiry, security code) mounts here, in its own frame. */}
      <div className="space-y-1">
        <span id={`${nameId}-card-label`} className="block text-sm font-medium text-slate-800">
          Card
        </span>
        <div
          ref={mountPoint}
          role="group"
          aria-labelledby={`${nameId}-card-label`}
          aria-describedby={cardProblem ? `${nameId}-card-error` : undefined}
          className={`${inputClass(Boolean(cardProblem))} min-h-10`}
        />
        {cardProblem ? (
          <p id={`${nameId}-card-error`} className="text-sm text-red-700">
            {cardProblem}
          </p>
        ) : null}
      </div>
      {loadProblem ? (
        <p role="alert" className="text-sm text-red-700">
          {loadProblem}
        </p>
      ) : null}
      <Button type="submit" busy={check.isPending} disabled={!ready}>
        Verify with my credit card
      </Button>
      {result ? (
        <ResultPanel
          status={result.status}
          title={result.status === 'approved' ? 'Age verified' : `Card check ${result.status}`}
          message={result.message}
        />
      ) : null}
    </form>
  );
}
