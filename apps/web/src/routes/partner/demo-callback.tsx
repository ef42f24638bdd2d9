import { createFileRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { handlePopupCallback } from '../../../../sdk/src/browser';

/** Where the demo's consent popup returns: hands the code back to the portal window and closes. */
export const Route = createFileRoute('/partner/demo-callback')({ component: DemoCallback });

function DemoCallback() {
  useEffect(() => {
    handlePopupCallback();
  }, []);
  return <p className="p-6 text-sm text-slate-700">Returning to the demo…</p>;
}
