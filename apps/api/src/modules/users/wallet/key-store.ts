import type { KeyObject } from 'node:crypto';
import { Transaction } from 'sequelize';
import type { Database } from '../../../db/database';
import { toDate } from '../../../db/rows';
import type { Clock } from '../../../lib/clock';
import { randomToken } from '../../../lib/crypto';
import { sealKey, unsealKey } from './sealed-keys';
import {
  certificateThumbprint,
  createRootCertificate,
  createSignerCertificate,
  isCertificateAuthority,
  keyMatchesCertificate,
  parseCertificate,
  parsePemBundle,
  privateKeyObject,
} from './certificates';

/**
 * The credential issuer's keys (issue 24 item 4), stored like the OIDC signing keys (oidc/keys.ts) but in a key set
 * of their own: rows shared by every replica, private keys sealed with AES-256-GCM under an HKDF key from the master
 * key, the row id as associated data. A root signs document signers; a signer signs credentials for at most
 * SIGNING_DAYS and is then replaced on the next issuance (or by `attestly wallet rotate`). Retired certificates stay
 * listed: verifiers pin the root, not the leaf, and a leaf's credentials carry it.
 */
export const ROOT_YEARS = 10;
export const SIGNING_DAYS = 90;
const PG_WALLET_KEYS_LOCK = 7212540024;

export interface WalletKeyDeps {
  db: Database;
  masterKey: Buffer;
  clock: Clock;
}

/** An operator's certificate or key file that cannot be used (the CLI shows it as one line). */
export class WalletKeyError extends Error {}

export type WalletCertificateKind = 'root' | 'signer' | 'anchor';

interface CertificateRow {
  id: string;
  kind: WalletCertificateKind;
  certificate_pem: string;
  sealed_private_key: string | null;
  label: string | null;
  not_before: unknown;
  not_after: unknown;
  signs_until: unknown;
  created_at: unknown;
  retired_at: unknown;
}

export interface WalletCertificate {
  id: string;
  kind: WalletCertificateKind;
  /** The certificate, then (imported signers) its chain up to the root. */
  pem: string;
  label: string | null;
  notBefore: Date;
  notAfter: Date;
  signsUntil: Date | null;
  createdAt: Date;
  retiredAt: Date | null;
  hasPrivateKey: boolean;
}

export interface DocumentSigner {
  id: string;
  /** DER of the signer certificate and the chain above it, leaf first (never the root: HAIP §6.1.1). */
  chain: Uint8Array[];
  privateKey: KeyObject;
}

const present = (row: CertificateRow): WalletCertificate => ({
  id: row.id,
  kind: row.kind,
  pem: row.certificate_pem,
  label: row.label,
  notBefore: toDate(row.not_before) as Date,
  notAfter: toDate(row.not_after) as Date,
  signsUntil: toDate(row.signs_until),
  createdAt: toDate(row.created_at) as Date,
  retiredAt: toDate(row.retired_at),
  hasPrivateKey: !!row.sealed_private_key,
});

const INSERT = `INSERT INTO wallet_certificates
    (id, kind, certificate_pem, sealed_private_key, label, not_before, not_after, signs_until, created_at, retired_at)
  VALUES (:id, :kind, :pem, :sealed, :label, :notBefore, :notAfter, :signsUntil, :createdAt, NULL)`;

export function createWalletKeyStore(
  deps: WalletKeyDeps,
  options: { issuer: string; credentialDays: number; country: string },
) {
  const { db } = deps;

  async function rows(kind?: WalletCertificateKind): Promise<CertificateRow[]> {
    return db.read<CertificateRow>(
      `SELECT * FROM wallet_certificates ${kind ? 'WHERE kind = :kind' : ''} ORDER BY created_at DESC, id`,
      kind ? { kind } : {},
    );
  }

  async function withLock<T>(work: (transaction: Transaction) => Promise<T>): Promise<T> {
    const settings = db.dialect === 'postgres' ? {} : { type: Transaction.TYPES.IMMEDIATE };
    return db.sequelize.transaction(settings, async (transaction) => {
      if (db.dialect === 'postgres')
        await db.sequelize.query(`SELECT pg_advisory_xact_lock(${PG_WALLET_KEYS_LOCK})`, { transaction });
      return work(transaction);
    });
  }

  async function insert(
    transaction: Transaction,
    row: {
      kind: WalletCertificateKind;
      pem: string;
      privateKey: Buffer | null;
      label: string | null;
      notBefore: Date;
      notAfter: Date;
      signsUntil: Date | null;
    },
  ): Promise<string> {
    const id = randomToken(12);
    await db.sequelize.query(INSERT, {
      transaction,
      replacements: {
        id,
        kind: row.kind,
        pem: row.pem,
        sealed: row.privateKey ? sealKey(deps.masterKey, id, row.privateKey) : null,
        label: row.label,
        notBefore: row.notBefore,
        notAfter: row.notAfter,
        signsUntil: row.signsUntil,
        createdAt: deps.clock.now(),
      },
    });
    return id;
  }

  async function retire(transaction: Transaction, kind: WalletCertificateKind): Promise<void> {
    await db.sequelize.query(
      'UPDATE wallet_certificates SET retired_at = :now WHERE kind = :kind AND retired_at IS NULL',
      { transaction, replacements: { now: deps.clock.now(), kind } },
    );
  }

  const currentOf = (list: CertificateRow[], kind: WalletCertificateKind) =>
    list.find((row) => row.kind === kind && toDate(row.retired_at) === null);

  /** A new signer under the current root (creating the root first when there is none). */
  async function addSigner(transaction: Transaction, list: CertificateRow[]): Promise<string> {
    const now = deps.clock.now();
    let root = currentOf(list, 'root');
    if (!root?.sealed_private_key) {
      const created = await createRootCertificate({
        name: 'Attestly Credential Root',
        country: options.country,
        now,
        years: ROOT_YEARS,
      });
      const id = await insert(transaction, { kind: 'root', ...created, label: null, signsUntil: null });
      root = {
        id,
        kind: 'root',
        certificate_pem: created.pem,
        sealed_private_key: sealKey(deps.masterKey, id, created.privateKey),
      } as CertificateRow;
    }
    const signer = await createSignerCertificate({
      root: {
        pem: root.certificate_pem,
        privateKey: unsealKey(deps.masterKey, root.id, root.sealed_private_key as string),
      },
      issuer: options.issuer,
      country: options.country,
      now,
      signingDays: SIGNING_DAYS,
      credentialDays: options.credentialDays,
    });
    await retire(transaction, 'signer');
    return insert(transaction, {
      kind: 'signer',
      ...signer,
      label: null,
      signsUntil: new Date(now.getTime() + SIGNING_DAYS * 86_400_000),
    });
  }

  const usable = (row: CertificateRow | undefined, now: Date) =>
    !!row?.sealed_private_key && (toDate(row.signs_until)?.getTime() ?? 0) > now.getTime();

  /**
   * The signer for credentials issued now. Created on first use (root and signer), and replaced once its signing
   * period is over — under a database lock, so replicas create one between them.
   */
  async function documentSigner(): Promise<DocumentSigner> {
    let row = currentOf(await rows('signer'), 'signer');
    if (!usable(row, deps.clock.now())) {
      row = await withLock(async (transaction) => {
        const list = (await db.sequelize.query('SELECT * FROM wallet_certificates', {
          transaction,
          type: 'SELECT',
        })) as CertificateRow[];
        const current = currentOf(list, 'signer');
        if (usable(current, deps.clock.now())) return current;
        const id = await addSigner(transaction, list);
        const [created] = (await db.sequelize.query('SELECT * FROM wallet_certificates WHERE id = :id', {
          transaction,
          replacements: { id },
          type: 'SELECT',
        })) as CertificateRow[];
        return created;
      });
    }
    const signer = row as CertificateRow;
    return {
      id: signer.id,
      chain: parsePemBundle(signer.certificate_pem)
        .filter(
          (certificate) =>
            !(isCertificateAuthority(certificate) && certificate.subject === certificate.issuer),
        )
        .map((certificate) => new Uint8Array(certificate.rawData)),
      privateKey: privateKeyObject(unsealKey(deps.masterKey, signer.id, signer.sealed_private_key as string)),
    };
  }

  /** `attestly wallet rotate`: a new signer now (and a new root with `newRoot`, retiring the old one). */
  async function rotate(
    rotation: { newRoot?: boolean } = {},
  ): Promise<{ signer: string; root: string | null }> {
    return withLock(async (transaction) => {
      let root: string | null = null;
      let list = (await db.sequelize.query('SELECT * FROM wallet_certificates', {
        transaction,
        type: 'SELECT',
      })) as CertificateRow[];
      if (rotation.newRoot) {
        await retire(transaction, 'root');
        const created = await createRootCertificate({
          name: 'Attestly Credential Root',
          country: options.country,
          now: deps.clock.now(),
          years: ROOT_YEARS,
        });
        root = await insert(transaction, { kind: 'root', ...created, label: null, signsUntil: null });
        list = (await db.sequelize.query('SELECT * FROM wallet_certificates', {
          transaction,
          type: 'SELECT',
        })) as CertificateRow[];
      }
      return { signer: await addSigner(transaction, list), root };
    });
  }

  /**
   * `attestly wallet import-signer`: a document signer issued by the operator's own CA or a QTSP (EU AV §3.4.4).
   * The chain file holds the signer first, then its issuers; the CA at the top becomes a trust anchor (partners pin it
   * instead of the Attestly root).
   */
  async function importSigner(input: { chainPem: string; privateKeyPem: string; label?: string }) {
    const chain = parsePemBundle(input.chainPem);
    const [leaf] = chain;
    if (!leaf) throw new WalletKeyError('the certificate file holds no certificate');
    if (isCertificateAuthority(leaf))
      throw new WalletKeyError('the first certificate is a CA, not a document signer');
    let key: KeyObject;
    try {
      key = privateKeyObject(
        Buffer.from(input.privateKeyPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64'),
      );
    } catch {
      throw new WalletKeyError('the key file is not a PKCS#8 PEM private key');
    }
    if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1')
      throw new WalletKeyError('the signer key must be a P-256 key (ES256)');
    if (!keyMatchesCertificate(key, leaf))
      throw new WalletKeyError('the private key does not belong to the certificate');
    const now = deps.clock.now();
    if (leaf.notAfter.getTime() <= now.getTime())
      throw new WalletKeyError('the signer certificate has expired');
    const top = chain[chain.length - 1] as typeof leaf;
    const selfSigned = chain.length > 1 && top.subject === top.issuer;
    const der = key.export({ format: 'der', type: 'pkcs8' });
    // It signs until its certificate can no longer cover a full credential lifetime, and never beyond SIGNING_DAYS.
    const signsUntil = new Date(
      Math.min(
        now.getTime() + SIGNING_DAYS * 86_400_000,
        leaf.notAfter.getTime() - options.credentialDays * 86_400_000,
      ),
    );
    if (signsUntil.getTime() <= now.getTime())
      throw new WalletKeyError(
        `the certificate expires within ${options.credentialDays} days: it cannot cover a credential`,
      );
    return withLock(async (transaction) => {
      await retire(transaction, 'signer');
      const signer = await insert(transaction, {
        kind: 'signer',
        pem: (selfSigned ? chain.slice(0, -1) : chain)
          .map((certificate) => certificate.toString('pem'))
          .join('\n'),
        privateKey: der,
        label: input.label ?? leaf.subject,
        notBefore: leaf.notBefore,
        notAfter: leaf.notAfter,
        signsUntil,
      });
      const anchor = selfSigned
        ? await insert(transaction, {
            kind: 'anchor',
            pem: top.toString('pem'),
            privateKey: null,
            label: `CA of imported signer: ${top.subject}`,
            notBefore: top.notBefore,
            notAfter: top.notAfter,
            signsUntil: null,
          })
        : null;
      return { signer, anchor, subject: leaf.subject, signsUntil };
    });
  }

  /** `attestly wallet trust add`: CA certificates whose credentials presentations may carry (EU AV, PID providers). */
  async function importAnchors(pemBundle: string, label?: string): Promise<string[]> {
    const certificates = parsePemBundle(pemBundle);
    if (!certificates.length) throw new WalletKeyError('the file holds no certificate');
    for (const certificate of certificates)
      if (!isCertificateAuthority(certificate))
        throw new WalletKeyError(`${certificate.subject} is not a CA certificate`);
    const known = new Set(
      await Promise.all(
        (await rows('anchor')).map((row) => certificateThumbprint(parseCertificate(row.certificate_pem))),
      ),
    );
    return withLock(async (transaction) => {
      const ids: string[] = [];
      for (const certificate of certificates) {
        if (known.has(await certificateThumbprint(certificate))) continue;
        ids.push(
          await insert(transaction, {
            kind: 'anchor',
            pem: certificate.toString('pem'),
            privateKey: null,
            label: label ?? certificate.subject,
            notBefore: certificate.notBefore,
            notAfter: certificate.notAfter,
            signsUntil: null,
          }),
        );
      }
      return ids;
    });
  }

  async function removeAnchor(id: string): Promise<boolean> {
    return (await db.write("DELETE FROM wallet_certificates WHERE id = :id AND kind = 'anchor'", { id })) > 0;
  }

  /** Every certificate row (CLI listing, the well-known root). */
  async function list(kind?: WalletCertificateKind): Promise<WalletCertificate[]> {
    return (await rows(kind)).map(present);
  }

  /** The roots partners pin (current first), as one PEM bundle; created on first request. */
  async function rootBundle(): Promise<string> {
    let roots = (await rows('root')).filter(
      (row) => toDate(row.not_after)!.getTime() > deps.clock.now().getTime(),
    );
    if (!roots.length) {
      await documentSigner();
      roots = await rows('root');
    }
    return roots.map((row) => row.certificate_pem.trim()).join('\n') + '\n';
  }

  /** What a presentation's issuer chain must lead to: Attestly's own roots and the imported anchors. */
  async function trustAnchors() {
    return (await rows())
      .filter((row) => row.kind === 'root' || row.kind === 'anchor')
      .flatMap((row) => parsePemBundle(row.certificate_pem));
  }

  return {
    documentSigner,
    rotate,
    importSigner,
    importAnchors,
    removeAnchor,
    list,
    rootBundle,
    trustAnchors,
  };
}
export type WalletKeyStore = ReturnType<typeof createWalletKeyStore>;
