import type { Deps } from '../../../core/deps';
import type { AuditService } from '../../shared/audit/service';
import { createCardVerification } from './credit-card';
import { createChallengeService } from './challenge';
import { createDocumentVerification } from './document';
import { createFacialVerification } from './facial';
import { createGeoLocator, createLocationVerification } from './location';
import { createVerificationService, type AttributionLookup } from './service';

/** The verification area as the routes use it: the core service plus one object per method. */
export function createVerificationModule(
  deps: Deps,
  services: { audit: AuditService; attribution?: AttributionLookup },
) {
  const core = createVerificationService(deps, services);
  const geo = createGeoLocator(deps.config.geoipDir);
  const challenges = createChallengeService(deps);
  return {
    ...core,
    challenges,
    facial: createFacialVerification(deps, core, challenges),
    document: createDocumentVerification(deps, core, challenges),
    card: createCardVerification(deps, core),
    location: { ...createLocationVerification(deps, core, geo), subdivisionsOf: geo.subdivisionsOf },
  };
}
export type VerificationModule = ReturnType<typeof createVerificationModule>;
