#!/usr/bin/env node
// Validates rendered Kubernetes manifests (`helm template … | node validate-manifests.mjs <tools dir>`) against
// the Kubernetes OpenAPI schemas as packaged by kubernetes-models (and the Prometheus Operator's CRD schemas for
// ServiceMonitor). The packages live in a tools folder that .ci/run installs (never in the project's
// package.json): pass that folder as the first argument. Exits 1 listing every invalid document.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const tools = process.argv[2];
if (!tools) {
  console.error('usage: helm template … | validate-manifests.mjs <tools dir with node_modules>');
  process.exit(2);
}
const load = (specifier) => import(pathToFileURL(path.join(tools, 'node_modules', specifier)).href);
const yaml = (await load('js-yaml/index.js')).default;

/** apiVersion → module under kubernetes-models (core "v1" lives in v1/). */
function modulePath(apiVersion, kind) {
  if (apiVersion.startsWith('monitoring.coreos.com/')) {
    return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}.js`;
  }
  return `kubernetes-models/${apiVersion}/${kind}.js`;
}

const documents = yaml.loadAll(readFileSync(0, 'utf8')).filter(Boolean);
const problems = [];
const seen = [];
for (const document of documents) {
  const { apiVersion, kind, metadata } = document;
  const label = `${kind} ${metadata?.name ?? '(no name)'}`;
  let Model;
  try {
    Model = (await load(modulePath(apiVersion, kind)))[kind];
  } catch {
    problems.push(`${label}: no schema for ${apiVersion} ${kind}`);
    continue;
  }
  try {
    new Model(document).validate();
    seen.push(label);
  } catch (error) {
    problems.push(`${label}: ${error.message}`);
  }
}
if (documents.length === 0) problems.push('no manifests on stdin');
if (problems.length > 0) {
  console.error(`invalid manifests:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(`valid: ${seen.join(', ')}`);
