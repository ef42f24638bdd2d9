/**
 * The part of Stripe.js v3 the card check uses (https://docs.stripe.com/js): a card Element mounted in the page
 * (an iframe on Stripe's origin, so the page never reads the number) and confirmCardSetup, which sends the card
 * to Stripe and runs the issuer's 3-D Secure challenge when it asks for one.
 */
export interface StripeCardElement {
  mount(target: HTMLElement): void;
  on(
    event: 'change',
    listener: (event: { complete: boolean; empty: boolean; error?: { message: string } }) => void,
  ): void;
  destroy(): void;
}

export interface StripeJs {
  elements(): { create(type: 'card', options?: Record<string, unknown>): StripeCardElement };
  confirmCardSetup(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement; billing_details: { name: string } } },
  ): Promise<{
    setupIntent?: { id: string; status: string };
    error?: { type?: string; message?: string; code?: string };
  }>;
}

declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

let loading: Promise<NonNullable<Window['Stripe']>> | null = null;

/** Loads Stripe.js once, from the address the server names (js.stripe.com), as Stripe requires. */
export function loadStripeJs(url: string): Promise<NonNullable<Window['Stripe']>> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () =>
      window.Stripe ? resolve(window.Stripe) : reject(new Error('Stripe.js did not load'));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('Stripe.js could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}
