import { join } from 'node:path';
import ts from 'typescript';
import { ROOT, type Manifest } from './manifests.js';

// The JSON schemas accept fields they do not define (a misspelt `livenessProb` passes them), while the API server's
// strict field validation (kubectl apply's default) refuses the object. The package's TypeScript interfaces list
// every field, and an object literal assigned to one may hold no other: the compiler names each unknown field.

const VIRTUAL_FILE = join(ROOT, '__kubernetes_manifests__.ts');

/** Compiler errors of the manifests as typed object literals: each one a field their kind does not have. */
export function unknownFieldErrors(manifests: Manifest[]): string[] {
  const source = manifests
    .map((m, i) => {
      const module = `kubernetes-models/${m.apiVersion}/${m.kind}`;
      return `import type { I${m.kind} as T${i} } from '${module}';\nexport const m${i}: T${i} = ${JSON.stringify(m, null, 1)};\n`;
    })
    .join('');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => (name === VIRTUAL_FILE ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === VIRTUAL_FILE || fileExists(name);
  const program = ts.createProgram([VIRTUAL_FILE], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? manifestAt(manifests, d.file.getLineAndCharacterOfPosition(d.start).line, source) : '?';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/** The manifest whose literal holds a line of the generated source. */
function manifestAt(manifests: Manifest[], line: number, source: string): string {
  const before = source.split('\n').slice(0, line + 1).join('\n');
  const index = before.lastIndexOf('export const m');
  const m = manifests[Number(/export const m(\d+)/.exec(before.slice(index))?.[1])];
  return m ? `${m.kind} ${m.metadata?.name}` : '?';
}
