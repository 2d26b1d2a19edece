import 'server-only';
import { approvedYamlFor, type ApprovalRecord } from '@/lib/role-builder/approval';
import { buildBundle } from '@/lib/role-builder/build-bundle';
import { checkInput } from '@/lib/role-builder/check-input';
import { CustomRuleError, parseCustomRules } from '@/lib/personas/custom-rules';
import { describeIdentity } from '@/lib/role-builder/identity';
import { renderBundleYaml } from '@/lib/role-builder/render-yaml';
import type { ApprovalsResponse, BuilderOptions, DecisionResponse, RoleBuildResponse } from '@/lib/role-builder/dto';
import { reviewRole } from '@/lib/role-builder/review-role';
import { sourceFingerprint } from '@/lib/role-builder/source-fingerprint';
import type { BuildInput } from '@/lib/role-builder/types';
import { ApiError } from '@/server/http/api-errors';
import { getAnalysis } from '@/server/services/get-report';
import { userFor } from '@/server/services/access';
import { canApplyBundle, whoCanApply } from '@/lib/role-builder/who-can-apply';
import { isStoreError } from '@/server/store/store-error';
import { decisionsAbout, listDecisions, recordDecision } from './approvals-store';
import { BuildRequestSchema, DecisionRequestSchema, type BuildRequest } from './request-schemas';

function toInput(request: BuildRequest): BuildInput {
  const identity = request.identity.kind === 'ServiceAccount' ? { ...request.identity, create: true } : request.identity;
  const input: BuildInput = { persona: request.persona, identity, drivers: request.drivers };
  if (request.namespace) input.namespace = request.namespace;
  if (request.customRules !== undefined && request.customRules.trim() !== '') {
    try {
      input.customRules = parseCustomRules(request.customRules);
    } catch (e) {
      if (e instanceof CustomRuleError) throw new ApiError('bad_request', `customRules: ${e.message}`);
      throw e;
    }
  }
  const problems = checkInput(input);
  if (problems.length > 0) throw new ApiError('bad_request', problems.join('; '));
  return input;
}

async function review(request: BuildRequest) {
  const input = toInput(request);
  const analysis = await getAnalysis();
  return { review: reviewRole(analysis.state, input, { baseline: analysis.report }), fingerprint: sourceFingerprint(analysis.state) };
}

/** The bundle, its YAML, the engine's validation and the diff against today, for the current cluster. */
export async function buildRole(body: unknown): Promise<RoleBuildResponse> {
  const { review: r, fingerprint } = await review(BuildRequestSchema.parse(body));
  let decisions: RoleBuildResponse['decisions'];
  try {
    const about = decisionsAbout(r.bundle.persona.id, describeIdentity(r.bundle.input.identity));
    decisions = { records: about.filter((d) => d.yamlSha256 === r.yamlSha256), superseded: about.filter((d) => d.yamlSha256 !== r.yamlSha256) };
  } catch (e) {
    // The builder still works without the store; only recording and history need it.
    if (!isStoreError(e)) throw e;
    decisions = { error: e.message };
  }
  const { engine } = (await getAnalysis()).context;
  return { ...r, sourceFingerprint: fingerprint, decisions, appliers: whoCanApply(engine, r.bundle.objects) };
}

/**
 * Records an approval or rejection of the YAML the approver reviewed. The YAML is rebuilt from the
 * same answers on the current cluster; if its digest differs (the cluster or the builder changed),
 * nothing is recorded.
 */
export async function decideRole(body: unknown): Promise<DecisionResponse> {
  const request = DecisionRequestSchema.parse(body);
  const { review: r, fingerprint } = await review(request.build);
  if (r.yamlSha256 !== request.yamlSha256) {
    throw new ApiError('bad_request', 'the YAML changed since it was reviewed (the cluster or the answers changed); review it again before deciding');
  }
  const record = recordDecision({
    decision: request.decision,
    approver: request.approver,
    comment: request.comment,
    yamlSha256: r.yamlSha256,
    sourceFingerprint: fingerprint,
    persona: r.bundle.persona.id,
    identity: describeIdentity(r.bundle.input.identity),
    input: r.bundle.input,
    yaml: r.yaml,
  });
  const { engine } = (await getAnalysis()).context;
  const approverCheck = request.decision === 'approve' ? canApplyBundle(engine, userFor(request.approver, [], ''), r.bundle.objects) : undefined;
  return { record, approvedYaml: approvedYaml(record), ...(approverCheck ? { approverCheck } : {}) };
}

function approvedYaml(record: ApprovalRecord): string | undefined {
  return approvedYamlFor(record, (input) => {
    const bundle = buildBundle(input);
    return { yaml: renderBundleYaml(bundle), approved: (stamp) => renderBundleYaml(bundle, stamp) };
  });
}

/** Every decision (newest first) with the approved export where the builder still produces that YAML. */
export async function listApprovals(): Promise<ApprovalsResponse> {
  const approvals = listDecisions().map((r) => ({ ...r, approvedYaml: approvedYaml(r) }));
  const { state } = await getAnalysis();
  return { approvals, currentFingerprint: sourceFingerprint(state) };
}

/** Choices the page offers: driver names, namespaces and service accounts of the current cluster. */
export async function builderOptions(): Promise<BuilderOptions> {
  const { state } = await getAnalysis();
  const sorted = (values: Iterable<string>) => [...new Set(values)].filter(Boolean).sort();
  return {
    drivers: sorted([
      ...state.resourceSlices.map((s) => s.spec?.driver ?? ''),
      ...state.resourceClaims.flatMap((c) => (c.status?.allocation?.devices?.results ?? []).map((r) => r.driver)),
    ]),
    namespaces: sorted(state.namespaces.map((n) => n.metadata.name)),
    serviceAccounts: sorted(state.serviceAccounts.map((s) => `${s.metadata.namespace}/${s.metadata.name}`)),
    kubernetesVersion: state.source.kubernetesVersion ?? null,
  };
}
