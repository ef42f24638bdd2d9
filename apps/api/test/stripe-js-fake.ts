/**
 * A stand-in for Stripe.js v3 served by the fake (GET /v3/): the subset the card check uses — `Stripe(key)`,
 * `elements().create('card')`, `mount`, `on('change')` and `confirmCardSetup` — speaking the fake's wire protocol
 * with the publishable key, as the real Stripe.js speaks api.stripe.com's. Its card field is a plain input inside
 * the mount point (the real one is an iframe on Stripe's origin: the page never reads the number either way).
 * A challenged card answers the challenge at once (a holder who passes 3-D Secure).
 */
export function stripeJs(apiUrl: string): string {
  return `(() => {
  window.Stripe = function Stripe(key) {
    return {
      elements() {
        return {
          create(type) {
            const input = document.createElement('input');
            input.setAttribute('aria-label', 'Card number');
            input.setAttribute('autocomplete', 'cc-number');
            input.setAttribute('inputmode', 'numeric');
            input.style.cssText = 'width:100%;border:0;outline:0;font:inherit;background:transparent';
            const listeners = [];
            input.addEventListener('input', () => {
              const digits = input.value.replace(/[^0-9]/g, '');
              listeners.forEach((listener) => listener({ complete: digits.length >= 15, empty: digits.length === 0, error: undefined }));
            });
            return {
              _input: input,
              mount(target) { (typeof target === 'string' ? document.querySelector(target) : target).appendChild(input); },
              on(event, listener) { if (event === 'change') listeners.push(listener); },
              destroy() { input.remove(); },
              unmount() { input.remove(); },
            };
          },
        };
      },
      async confirmCardSetup(clientSecret, data) {
        const intentId = clientSecret.split('_secret_')[0];
        const form = new URLSearchParams({
          client_secret: clientSecret,
          'payment_method_data[type]': 'card',
          'payment_method_data[card][number]': data.payment_method.card._input.value.replace(/[^0-9]/g, ''),
          'payment_method_data[billing_details][name]': (data.payment_method.billing_details || {}).name || '',
        });
        const response = await fetch('${apiUrl}/v1/setup_intents/' + intentId + '/confirm', {
          method: 'POST',
          headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form,
        });
        const intent = await response.json();
        if (intent.last_setup_error) return { error: intent.last_setup_error, setupIntent: intent };
        return { setupIntent: intent };
      },
    };
  };
})();`;
}
