import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { newsletterSubscribeBody } from '@attestly/contracts';
import { errorMessage } from '../../api/client';
import { newsletterApi } from '../../api/newsletter';
import { toast } from '../../lib/toast';
import { Button } from '../ui/button';

/**
 * The Stay Updated block (spec 01 §2): really subscribes, with double opt-in — the address is only added once its
 * owner follows the link in the confirmation mail.
 */
export function NewsletterForm({ title = 'Stay Updated', note }: { title?: string; note?: string }) {
  const form = useForm<{ email: string }>({
    resolver: valibotResolver(newsletterSubscribeBody),
    defaultValues: { email: '' },
  });
  const subscribe = useMutation({
    mutationFn: (email: string) => newsletterApi.subscribe(email),
    onSuccess: (answer) => {
      toast.success(answer.message);
      form.reset();
    },
    onError: (error) => toast.error(errorMessage(error, 'Subscription failed')),
  });
  const error = form.formState.errors.email?.message;

  return (
    <section
      aria-labelledby="newsletter-title"
      className="rounded-2xl bg-indigo-800 px-6 py-10 text-white sm:px-10"
    >
      <h2 id="newsletter-title" className="text-2xl font-bold">
        {title}
      </h2>
      <p className="mt-2 max-w-xl text-indigo-100">
        Compliance changes and industry news on age and identity verification, in your inbox.
      </p>
      <form
        className="mt-6 flex max-w-lg flex-col gap-3 sm:flex-row sm:items-start"
        noValidate
        onSubmit={form.handleSubmit((values) => subscribe.mutate(values.email))}
      >
        <div className="flex-1">
          <label htmlFor="newsletter-email" className="sr-only">
            Email address
          </label>
          <input
            id="newsletter-email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'newsletter-email-error' : undefined}
            className="block w-full rounded-lg border-0 bg-white px-3 py-2.5 text-slate-900 placeholder:text-slate-500 focus:ring-2 focus:ring-white"
            {...form.register('email')}
          />
          {error ? (
            <p id="newsletter-email-error" className="mt-1 text-sm text-white">
              {error}
            </p>
          ) : null}
        </div>
        <Button type="submit" variant="secondary" busy={subscribe.isPending} className="py-2.5">
          Subscribe
        </Button>
      </form>
      {note ? <p className="mt-3 text-sm text-indigo-100">{note}</p> : null}
    </section>
  );
}
