/** A Dockerfile read statically: its global ARGs and its stages with their instructions. */
export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  /** The base as written (e.g. ${NODE_RUNTIME_IMAGE}) and with global ARG defaults substituted. */
  from: string;
  base: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  args: Record<string, string>;
  stages: Stage[];
}

/** Joins continuation lines, drops comments and parser directives, splits into stages. */
export function parseDockerfile(text: string): Dockerfile {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (current !== '' && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += line.slice(0, -1) + ' ';
      continue;
    }
    lines.push((current + line).trim());
    current = '';
  }
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const argsText = rest.join(' ');
    const kw = keyword.toUpperCase();
    if (kw === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(argsText);
      if (!m) throw new Error(`Unreadable FROM: ${line}`);
      const from = m[1] as string;
      const base = from.replace(/\$\{?(\w+)\}?/g, (_, name: string) => args[name] ?? `\${${name}}`);
      stages.push({ name: m[2] ?? `stage-${stages.length}`, from, base, instructions: [] });
    } else if (stages.length === 0) {
      if (kw === 'ARG') {
        const [name, value] = argsText.split('=');
        if (name) args[name] = value ?? '';
      }
    } else {
      (stages[stages.length - 1] as Stage).instructions.push({ keyword: kw, args: argsText });
    }
  }
  return { args, stages };
}

/** The JSON array of an exec-form instruction (CMD ["a", "b"]), or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  const json = args.replace(/^(--\S+\s+)*(CMD\s+)?/, '');
  if (!json.startsWith('[')) return undefined;
  return JSON.parse(json) as string[];
}
