import 'server-only';
import { CLUSTER_CONFIG_HELP } from './cluster-config-flags';

const SOURCE = `Cluster (one of):
  --snapshot PATH          a file or folder of kubectl -o json / YAML, or a compliance bundle
  --demo                   the bundled demo cluster
  --kubeconfig FILE        a live cluster (read-only lists); --context NAME picks the context`;

/** `dra-posture COMMAND --help`: usage, flags and examples of each command. */
export const COMMAND_HELP: Record<string, string> = {
  'can-i': `dra-posture can-i: may this user do this? (as kubectl auth can-i, from the cluster's RBAC and Node authorizer)

Usage:
  dra-posture can-i VERB TYPE[.GROUP][/NAME] --as USER [flags]
  dra-posture can-i VERB /PATH --as USER [flags]
  dra-posture can-i --batch FILE|-             SubjectAccessReviews (JSON array, List or JSON lines) → the same with status

Flags:
  --as USER, --as-group G..., --as-user-extra k=v...     who asks
  --impersonate-user U [--impersonate-group G]... [--impersonate-uid ID] [--impersonate-extra k=v]...
  -n, --namespace NS       namespace of a namespaced TYPE (default "default"); -A, --all-namespaces: any namespace
  --subresource S          e.g. status, binding, driver
  --field-selector S       e.g. spec.nodeName=node-1 (the Node authorizer lets a node list only its own pods and slices)
  --label-selector S       checked and carried; the built-in authorizers (Node, RBAC) decide on field selectors only
  -o json                  the decision with the rule that granted it; -q, --quiet: print nothing
${CLUSTER_CONFIG_HELP}
${SOURCE}

Exit codes: 0 yes, 1 no, 2 usage error or unreadable input.

Examples:
  dra-posture can-i update resourceclaims --subresource status -n tenant-a --as alice --demo
  dra-posture can-i create resourceslices --as system:node:node-1 --as-group system:nodes --kubeconfig ~/.kube/config
  kubectl dra-posture can-i --batch reviews.json --snapshot cluster/`,

  'who-can': `dra-posture who-can: every subject allowed to do this, and the bindings that allow it

Usage:
  dra-posture who-can VERB TYPE[.GROUP][/NAME] [-n NS | -A] [--subresource S] [flags]
  dra-posture who-can VERB /PATH
  dra-posture who-can --batch FILE|-           many questions, one read of the cluster

Batch file: one question a line as on the command line ("create resourceslices", "get pods web-0 -n shop";
# starts a comment), or JSON (array, List or JSON lines) of {"resourceAttributes": {...}} or
{"nonResourceAttributes": {...}} as in a SubjectAccessReview spec.

Flags:
  -n, --namespace NS, -A, --all-namespaces, --subresource S
  --field-selector S       e.g. spec.nodeName=node-1 (which node identities may list with it); --label-selector S checked, decides nothing
  -o wide|json|yaml        wide: one row per binding, role and rule; json/yaml: {request, subjects} (a list with --batch)
${CLUSTER_CONFIG_HELP}
${SOURCE}

Exit codes: 0 answered (also when nobody can), 2 usage error or unreadable input.

Examples:
  dra-posture who-can update resourceclaims --subresource status -n tenant-a --demo
  dra-posture who-can create resourceslices -o wide --kubeconfig ~/.kube/config --context prod
  dra-posture who-can --batch questions.txt -o json --snapshot cluster/`,

  report: `dra-posture report: the posture report (every check, with evidence and remediation)

Usage:
  dra-posture report [-o markdown|json|html|sarif|junit] [--fail-on critical|high|medium|low|info]
                     [--authorizers Node,RBAC] [--node-restriction on|off] [--feature-gates A=true,B=false]...
${CLUSTER_CONFIG_HELP}
${SOURCE}

Exit codes: 0 done, 3 a finding at or above --fail-on, 2 usage error or unreadable input.

Examples:
  dra-posture report --demo
  dra-posture report --snapshot manifests/ -o sarif > dra-posture.sarif
  dra-posture report --kubeconfig ~/.kube/config --fail-on high -o junit > dra-posture.xml
  dra-posture report --snapshot eks-dump/ --node-restriction on --feature-gates ConstrainedImpersonation=true`,

  'build-role': `dra-posture build-role: a least-privilege Role/ClusterRole and binding for a DRA persona

Usage:
  dra-posture build-role --persona P [--driver D]... [-n NS] [--service-account NS/NAME | --user U | --group G]
                         [--rule "VERBS RESOURCE[.GROUP][/SUB] [NAMES] # why"]... [-o yaml|json] [--demo | --snapshot PATH]

With a cluster, the bundle is validated and compared with today's grants.

Exit codes: 0 done, 2 usage error or unreadable input.

Examples:
  dra-posture build-role --persona driver --driver gpu.example.com --service-account dra/driver
  dra-posture build-role --persona tenant -n tenant-a --group team-a -o json --demo`,

  export: `dra-posture export: a compliance bundle (tar: report, objects, CSV, HTML, manifest of digests)

Usage:
  dra-posture export --out FILE [--key PRIVATE.pem] [--pdf] [--authorizers Node,RBAC] [--node-restriction on|off] [--feature-gates A=true]...
${CLUSTER_CONFIG_HELP}
${SOURCE}

Exit codes: 0 written, 2 usage or key error.

Examples:
  dra-posture export --out posture.tar --demo
  dra-posture export --out posture.tar --key signing.pem --pdf --kubeconfig ~/.kube/config`,

  verify: `dra-posture verify: check a compliance bundle's digests (and signature)

Usage:
  dra-posture verify FILE [--key PUBLIC.pem]

Exit codes: 0 verified, 1 not verified (one line per thing that changed), 2 usage error.

Examples:
  dra-posture verify posture.tar
  dra-posture verify posture.tar --key signing.pub.pem`,

  diff: `dra-posture diff: drift between two bundles (or stored snapshot ids)

Usage:
  dra-posture diff A B [-o json]

Exit codes: 0 no changes, 1 changes, 2 usage error or unreadable input.

Examples:
  dra-posture diff monday.tar tuesday.tar
  dra-posture diff monday.tar tuesday.tar -o json`,

  serve: `dra-posture serve: the dashboard (builds it on first run in a checkout)

Usage:
  dra-posture serve [--host 127.0.0.1] [--port 3000] [--public-url URL] [--demo | --snapshot PATH | --kubeconfig FILE [--context NAME]] [--rebuild]
                    [--auth none|kubernetes] [--auth-kubeconfig FILE [--auth-context NAME]] [--unsafe-no-auth]
${CLUSTER_CONFIG_HELP}

The server answers only requests addressed to a loopback name, an IP address, --host or the host of
--public-url (the URL browsers use behind a reverse proxy or ingress); writes must come from the same origin.

--auth kubernetes: viewers sign in with a Kubernetes bearer token (pasted on /sign-in, or sent as
Authorization: Bearer by an OIDC proxy such as oauth2-proxy). The API server says who they are
(TokenReview) and what they may do (SubjectAccessReview on the API group dra-posture.io: get reports,
create simulations, create approvals, get/create snapshots, create sources; deploy/15-user-roles.yaml).
Reviews go to --auth-kubeconfig, else --kubeconfig, else the default kubeconfig or in-cluster account.
--auth none (no sign-in) is the default on loopback only: any other --host needs --auth kubernetes,
or --unsafe-no-auth to serve everything to everyone who reaches it.

Examples:
  dra-posture serve --demo
  dra-posture serve --kubeconfig ~/.kube/config --port 8080
  dra-posture serve --host 0.0.0.0 --public-url https://posture.example.com --auth kubernetes`,

  completion: `dra-posture completion: shell completion

Usage:
  dra-posture completion bash|zsh

Examples:
  source <(dra-posture completion bash)
  dra-posture completion zsh > "\${fpath[1]}/_dra-posture"`,

  simulate: `dra-posture simulate: would this write be accepted? The whole chain, in the API server's order:
impersonation, authorization, NodeRestriction (node identities, when the cluster runs it), then the checks on the body: RBAC
escalation prevention (Roles, ClusterRoles and their bindings) and the DRA claim status checks
(status.allocation/reservedFor need resourceclaims/binding; status.devices entries need
resourceclaims/driver per driver, associated-node or arbitrary-node). Says which step refused and why.

Usage:
  dra-posture simulate -f MANIFEST --as USER [flags]                      a create of the manifest
  dra-posture simulate -f NEW --verb update --old OLD --as USER [flags]   an update (also patch: the object after the patch)
  dra-posture simulate -f REQUEST.json                                    a request document (names its own user)
  dra-posture simulate --batch FILE|-                                     request documents (JSON array, List or JSON lines)

A request document: {"user": "...", "groups": [...], "extra": {...}, "verb": "create|update|patch|delete",
  "group": "...", "resource": "...", "subresource": "...", "namespace": "...", "name": "...",
  "new": {object}, "old": {object}, "impersonate": {"user": "...", "groups": [...]}}

Flags:
  --as USER, --as-group G..., --as-user-extra k=v...     who sends it (a pod token: --as-user-extra authentication.kubernetes.io/node-name=NODE)
  --impersonate-user U [--impersonate-group G]... [--impersonate-uid ID] [--impersonate-extra k=v]...
  --verb VERB              create (default without --old), update (default with --old), patch or delete
  --old FILE               the stored object (updates, patches, deletes)
  --subresource S          e.g. status for resourceclaims/status, nodes/status
  -o json|yaml             every step with its reason
${CLUSTER_CONFIG_HELP}
${SOURCE}

Exit codes: 0 accepted, 1 refused (with --batch: 0 when every document was read), 2 usage error or unreadable input.

Examples:
  dra-posture simulate -f role.yaml --as alice --demo
  dra-posture simulate -f claim-after.yaml --old claim-before.yaml --verb update --subresource status \
      --as system:serviceaccount:gpu-operator:plugin --as-user-extra authentication.kubernetes.io/node-name=gpu-1 --demo
  dra-posture simulate --batch writes.json -o json --kubeconfig ~/.kube/config`,

  'audit-policy': `dra-posture audit-policy: the recommended Kubernetes audit policy for DRA, or a check of yours

Usage:
  dra-posture audit-policy [--tenant-namespace NS]... [-o yaml|json]
  dra-posture audit-policy --check POLICY.yaml [--tenant-namespace NS]...

Flags:
  --tenant-namespace NS    log claim writes in this tenant namespace at RequestResponse (repeatable); with --check, also probe it
  -o yaml|json             output format of the policy (default yaml)
  --check POLICY.yaml      say which requests the AUDIT checks read the policy does not log at the level they need (first
                           matching rule wins), and warn about shadowed rules, glob namespaces and rules that match nothing

Exit codes: 0 printed (or the policy logs what the checks read; warnings alone do not fail), 1 the checked policy misses some, 2 usage error or unreadable input.

Examples:
  dra-posture audit-policy --tenant-namespace team-a --tenant-namespace team-b > audit-policy.yaml
  dra-posture audit-policy --check /etc/kubernetes/audit-policy.yaml`,

  checks: `dra-posture checks: the check catalogue (every stable check ID, its severity, what it means, the general fix)

Usage:
  dra-posture checks [-o table|json|yaml]

Flags:
  -o table|json|yaml       output format (default table)

Exit codes: 0 printed, 2 usage error.

Examples:
  dra-posture checks
  dra-posture checks -o json | jq '.[] | select(.severity == "critical") | .id'`,
};

/** Whether argv asks for help (before any "--", which ends flags). */
export function asksForHelp(argv: string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
