import { DataTypes } from 'sequelize';
import type { Migration } from '../migration';

/**
 * Wallet credentials (issue 24): the issuer's certificates (the credential root partners pin, the document signers,
 * and trust anchors the operator imported for verifying), private keys sealed with a key derived from the master
 * key; and OpenID4VP presentation transactions, stored so that any replica can take the wallet's answer and each
 * is used once. Nothing per issued credential is stored anywhere.
 */
export const up: Migration = async ({ context: qi }) => {
  await qi.createTable('wallet_certificates', {
    id: { type: DataTypes.STRING(64), primaryKey: true },
    /** root (Attestly's own credential root), signer (signs credentials), anchor (trusted for verifying). */
    kind: { type: DataTypes.STRING(16), allowNull: false },
    /** The certificate, followed for an imported signer by the chain up to (not including) its root. */
    certificate_pem: { type: DataTypes.TEXT, allowNull: false },
    /** AES-256-GCM of the PKCS#8 key: base64url(iv).base64url(tag).base64url(ciphertext); none for anchors. */
    sealed_private_key: DataTypes.TEXT,
    label: DataTypes.STRING(200),
    not_before: { type: DataTypes.DATE, allowNull: false },
    not_after: { type: DataTypes.DATE, allowNull: false },
    /** Signers: the last moment this key may sign. */
    signs_until: DataTypes.DATE,
    created_at: { type: DataTypes.DATE, allowNull: false },
    retired_at: DataTypes.DATE,
  });
  await qi.addIndex('wallet_certificates', ['kind', 'created_at'], { name: 'wallet_certificates_kind' });

  await qi.createTable('wallet_presentations', {
    /** SHA-256 of the transaction id the wallet posts to: the database alone does not yield a usable URL. */
    id: { type: DataTypes.STRING(64), primaryKey: true },
    interaction_uid: { type: DataTypes.STRING(128), allowNull: false },
    nonce: { type: DataTypes.STRING(128), allowNull: false },
    response_mode: { type: DataTypes.STRING(24), allowNull: false },
    /** The age the sign-in asks about (its highest AGE_NN scope). */
    age_threshold: { type: DataTypes.INTEGER, allowNull: false },
    /** direct_post.jwt: the ephemeral ECDH-ES private key the answer is encrypted to, sealed. */
    sealed_key: DataTypes.TEXT,
    /** pending → answered (a valid presentation) or refused → used (the sign-in finished with it). */
    status: { type: DataTypes.STRING(16), allowNull: false },
    /** The random subject of this presentation (an ephemeral account, no users row). */
    account_id: DataTypes.STRING(64),
    /** JSON of the proven claims, e.g. {"age_over_18": true}. */
    claims: DataTypes.TEXT,
    /** SHA-256 of the response code the same-device redirect carries back. */
    response_code_hash: DataTypes.STRING(64),
    created_at: { type: DataTypes.DATE, allowNull: false },
    expires_at: { type: DataTypes.DATE, allowNull: false },
    answered_at: DataTypes.DATE,
    used_at: DataTypes.DATE,
  });
  await qi.addIndex('wallet_presentations', ['interaction_uid'], {
    name: 'wallet_presentations_interaction',
  });
  await qi.addIndex('wallet_presentations', ['account_id'], { name: 'wallet_presentations_account' });
  await qi.addIndex('wallet_presentations', ['expires_at'], { name: 'wallet_presentations_expires' });
};

export const down: Migration = async ({ context: qi }) => {
  await qi.dropTable('wallet_presentations');
  await qi.dropTable('wallet_certificates');
};
