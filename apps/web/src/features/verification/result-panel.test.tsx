import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ResultPanel, facialResultHeadline } from './result-panel';

describe('the facial result panel', () => {
  it("leads with spec 01's wording and keeps the plain explanation under it", () => {
    render(
      <ResultPanel
        status="approved"
        headline={facialResultHeadline('approved')}
        title="Age verified: 18+"
        message="Your age is verified."
      />,
    );
    const panel = screen.getByRole('status');
    expect(panel.textContent).toBe(
      'Age verification approved! Results stored securely.Age verified: 18+Your age is verified.',
    );
  });

  it('says rejected in the spec wording, and says nothing extra for other outcomes', () => {
    expect(facialResultHeadline('rejected')).toBe('Age verification rejected.');
    expect(facialResultHeadline('pending')).toBeUndefined();
    render(<ResultPanel status="pending" title="In review" message="A reviewer will look at it." />);
    expect(screen.getByRole('status').textContent).toBe('In reviewA reviewer will look at it.');
  });
});
