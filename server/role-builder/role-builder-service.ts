import 'server-only';
import { approvedYamlFor, type ApprovalRecord } from '@/lib/role-builder/approval';
import { buildBundle } from '@/lib/role-builder/build-bundle';
import { checkInput } from '@/lib/role-builder/check-input';
import { CustomRuleError, parseCustomRules } from '@/lib/personas/custom-rules';
import { describeIdentity } from '@/lib/role-builder/identity';
import { renderBundleYaml } from '@/lib/role-builder/render-yaml';
import type { ApprovalsResponse, BuilderOptions, DecisionResponse, RoleBuildResponse } from '@/lib/role-builder/dto';
import type { BuildInput } from '@/lib/role-builder/types';
import { ApiError } from '@/server/http/api-errors';
import type { AuthenticatedUser } from '@/server/auth/kube-reviews';
import { getAnalysis } from '@/server/services/get-report';
import { userFor } from '@/server/services/access';
import { canApplyBundle, whoCanApply } from '@/lib/role-builder/who-can-apply';
import { isStoreError } from '@/server/store/store-error';
import { decisionsAbout, listDecisions, recordDecision } from './approvals-store';
import { BuildRequestSchema, DecisionRequestSchema, type BuildRequest } from './request-schemas';
import { currentFingerprint, prepareInBackground, validatedReview, validateOnCurrent, type ValidatedReview } from './validated-reviews';

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

/** The bundle, its YAML, the engine's validation and the diff against today, for the current cluster. */
export async function buildRole(body: unknown): Promise<RoleBuildResponse> {
  const validated = await validateOnCurrent(toInput(BuildRequestSchema.parse(body)));
  const { review: r, fingerprint } = validated;
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
  return { ...r, sourceFingerprint: fingerprint, decisions, appliers: whoCanApply(engine, r.bundle.objects, validated.applying) };
}

const REVIEW_AGAIN = 'review it again before deciding';

/**
 * The validation a decision is about. On the cluster version the YAML was reviewed on, the build's own
 * (nothing is recomputed); otherwise the YAML is built and validated again on the current cluster, and
 * the decision is refused when the YAML differs, or when the cluster changed since the review and the
 * validation now says something else (or what it said then is no longer known).
 */
async function reviewedOrAgain(input: BuildInput, yamlSha256: string, reviewedOn: string | undefined): Promise<ValidatedReview> {
  const fingerprint = await currentFingerprint();
  const seen = reviewedOn && reviewedOn !== fingerprint ? validatedReview(reviewedOn, yamlSha256, input) : undefined;
  const again = validatedReview(fingerprint, yamlSha256, input) ?? (await validateOnCurrent(input));
  if (again.review.yamlSha256 !== yamlSha256) {
    throw new ApiError('bad_request', `the YAML changed since it was reviewed (the cluster or the answers changed); ${REVIEW_AGAIN}`);
  }
  if (reviewedOn && reviewedOn !== again.fingerprint) {
    if (!seen) throw new ApiError('bad_request', `the cluster changed since the YAML was reviewed, and that review is no longer kept; ${REVIEW_AGAIN}`);
    if (JSON.stringify(seen.review.validation) !== JSON.stringify(again.review.validation))
      throw new ApiError('bad_request', `the cluster changed since the YAML was reviewed and its validation now differs; ${REVIEW_AGAIN}`);
  }
  return again;
}

/**
 * Records an approval or rejection of the YAML the approver reviewed. The YAML is rebuilt from the
 * same answers on the current cluster; if its digest differs (the cluster or the builder changed),
 * nothing is recorded. Under `serve --auth kubernetes` the approver is the signed-in user (`signedIn`,
 * from the API server's TokenReview), never a name from the request.
 */
export async function decideRole(body: unknown, signedIn?: AuthenticatedUser): Promise<DecisionResponse> {
  const request = DecisionRequestSchema.parse(body);
  const approver = signedIn?.username ?? request.approver;
  if (!approver) throw new ApiError('bad_request', 'approver: the approver’s name is required');
  const input = toInput(request.build);
  const validated = await reviewedOrAgain(input, request.yamlSha256, request.sourceFingerprint);
  const r = validated.review;
  const record = recordDecision({
    decision: request.decision,
    approver,
    ...(signedIn ? { approverGroups: signedIn.groups, approverAuthenticated: true } : {}),
    comment: request.comment,
    yamlSha256: r.yamlSha256,
    sourceFingerprint: validated.fingerprint,
    persona: r.bundle.persona.id,
    identity: describeIdentity(r.bundle.input.identity),
    input: r.bundle.input,
    yaml: r.yaml,
  });
  const { engine } = (await getAnalysis()).context;
  const approverCheck =
    request.decision === 'approve' ? canApplyBundle(engine, userFor(approver, signedIn?.groups ?? [], ''), r.bundle.objects, validated.applying) : undefined;
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
  return { approvals, currentFingerprint: await currentFingerprint() };
}

/** Choices the page offers: driver names, namespaces and service accounts of the current cluster. */
export async function builderOptions(): Promise<BuilderOptions> {
  const analysis = await getAnalysis();
  const { state } = analysis;
  void prepareInBackground(analysis);
  const sorted = (values: Iterable<string>) => [...new Set(values)].filter(Boolean).sort();
  return {
    drivers: sorted([
      ...state.resourceSlices.map((s) => s.spec?.driver ?? ''),
      ...state.resourceClaims.flatMap((c) => (c.status?.allocation?.devices?.results ?? []).map((r) => r.driver)),
    ]),
    namespaces: sorted(state.namespaces.map((n) => n.metadata.name)),
    serviceAccounts: sorted(state.serviceAccounts.map((s) => `${s.metadata.namespace}/${s.metadata.name}`)),
    kubernetesVersion: state.source.kubernetesVersion ?? null,
    rbacObjects: state.roles.length + state.clusterRoles.length + state.roleBindings.length + state.clusterRoleBindings.length,
  };
}
