import { CopyButton } from './copy-button';

/** Preformatted text (YAML, JSON, commands) with an optional copy button; content is plain text. */
export function CodeBlock({ code, label, copy = true }: { code: string; label: string; copy?: boolean }) {
  return (
    <div className="overflow-hidden rounded-md border border-slate-200 bg-slate-950">
      <div className="flex items-center justify-between border-b border-slate-800 px-3 py-1.5">
        <span className="text-xs font-medium text-slate-400">{label}</span>
        {copy && <CopyButton text={code} label={`Copy ${label.toLowerCase()}`} />}
      </div>
      <pre tabIndex={0} aria-label={label} className="max-h-[28rem] overflow-auto p-3 font-mono text-[12.5px] leading-relaxed text-slate-100">
        <code>{code}</code>
      </pre>
    </div>
  );
}
