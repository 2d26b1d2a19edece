/** A remediation text split into prose, shell commands and YAML manifests, for display with copy buttons. */
export type RemediationPart = { type: 'text'; text: string } | { type: 'yaml'; text: string } | { type: 'command'; text: string };

const YAML_START = /^(apiVersion|kind):\s/;
const COMMAND = /^\s*(\$\s+)?(kubectl|helm)\s/;

export function splitRemediation(text: string): RemediationPart[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const parts: RemediationPart[] = [];
  const push = (type: RemediationPart['type'], line: string) => {
    const last = parts[parts.length - 1];
    if (last && last.type === type) last.text += `\n${line}`;
    else parts.push({ type, text: line });
  };
  let inYaml = false;
  for (const line of lines) {
    if (!inYaml && YAML_START.test(line)) inYaml = true;
    if (inYaml) push('yaml', line);
    else if (COMMAND.test(line)) push('command', line.replace(/^\s*\$\s+/, ''));
    else push('text', line);
  }
  return parts.map((p) => ({ ...p, text: p.text.replace(/^\n+|\s+$/g, '') })).filter((p) => p.text.length > 0);
}
