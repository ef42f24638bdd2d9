import type { Migration } from '../migration';

/**
 * The review queue filtered by type and method together (issue 9 "Performance"): one index range serves the page
 * and its total_count, instead of a type range checked row by row for the method.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.addIndex('verifications', ['verification_type', 'verification_method', 'created_at'], {
    name: 'verifications_type_method_created',
  });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.removeIndex('verifications', 'verifications_type_method_created');
};
