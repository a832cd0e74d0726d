import { describe, expect, it } from 'vitest';
import { answerBlocks, parseInline, parseMarkdown, plainText } from '@pilothouse/wire/markdown';

describe('the assistant Markdown both clients draw', () => {
  it('reads strong, emphasis, code and links inline, and leaves snake_case and arithmetic alone', () => {
    expect(parseInline('Restart **payments-worker** in `shop`, see [the runbook](https://example.com/rb) or *now*.')).toEqual([
      { kind: 'text', text: 'Restart ' },
      { kind: 'strong', text: 'payments-worker' },
      { kind: 'text', text: ' in ' },
      { kind: 'code', text: 'shop' },
      { kind: 'text', text: ', see ' },
      { kind: 'link', text: 'the runbook', href: 'https://example.com/rb' },
      { kind: 'text', text: ' or ' },
      { kind: 'emphasis', text: 'now' },
      { kind: 'text', text: '.' },
    ]);
    expect(parseInline('max_surge_value is 2*3*4')).toEqual([{ kind: 'text', text: 'max_surge_value is 2*3*4' }]);
  });

  it('never makes a link of a script or a relative address: they stay text', () => {
    expect(parseInline('[click](javascript:alert(1))')).toEqual([
      { kind: 'text', text: 'click (javascript:alert(1)' },
      { kind: 'text', text: ')' },
    ]);
    expect(parseInline('[x](/api/admin)')).toEqual([{ kind: 'text', text: 'x (/api/admin)' }]);
    expect(plainText(parseInline('<img src=x onerror=alert(1)> **b**'))).toBe('<img src=x onerror=alert(1)> b');
  });

  it('splits an answer into headings, lists, fenced code and paragraphs', () => {
    const blocks = parseMarkdown(
      '## Cause\nThe pod **crashes**\nevery minute.\n\n- OOMKilled\n- exit 137\n\n1. raise the limit\n2. roll out\n\n```bash\nkubectl logs web --previous\n```\nDone.',
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 2, inlines: [{ kind: 'text', text: 'Cause' }] },
      {
        kind: 'paragraph',
        inlines: [
          { kind: 'text', text: 'The pod ' },
          { kind: 'strong', text: 'crashes' },
          { kind: 'text', text: ' every minute.' },
        ],
      },
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'OOMKilled' }], [{ kind: 'text', text: 'exit 137' }]] },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'raise the limit' }], [{ kind: 'text', text: 'roll out' }]] },
      { kind: 'code', language: 'bash', text: 'kubectl logs web --previous' },
      { kind: 'paragraph', inlines: [{ kind: 'text', text: 'Done.' }] },
    ]);
  });

  it('parses a partial answer while it streams: an open fence runs to the end', () => {
    expect(parseMarkdown('Run:\n```\nkubectl get pods')).toEqual([
      { kind: 'paragraph', inlines: [{ kind: 'text', text: 'Run:' }] },
      { kind: 'code', language: '', text: 'kubectl get pods' },
    ]);
  });

  it('leaves a prompted-mode tool call out of the text a reader sees (its tool card shows it)', () => {
    const answer = 'Let me look.\n\n```tool_call\n{"name": "kubectl", "arguments": {"command": "get pods"}}\n```\n\n```bash\nkubectl get pods\n```';
    expect(answerBlocks(answer)).toEqual([
      { kind: 'paragraph', inlines: [{ kind: 'text', text: 'Let me look.' }] },
      { kind: 'code', language: 'bash', text: 'kubectl get pods' },
    ]);
  });
});
