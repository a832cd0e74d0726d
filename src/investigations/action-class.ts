import type { SuggestedAction } from '../crds/investigation.js';
import type { SafetyAnalyzer } from '../tools/safety/index.js';
import type { Conclusion } from './conclude-tool.js';

/** Pilothouse's own class of a suggested command (never the model's): the kubectl safety classifier's, or `blocked`. */
export function classifyAction(safety: Pick<SafetyAnalyzer, 'analyzeSync'>, command: string): string {
  const report = safety.analyzeSync('kubectl', command.replace(/^\s*kubectl\s+/, ''));
  return report.blocked ? 'blocked' : report.type;
}

/** The suggested actions of a conclusion, each classified by `classify`. */
export function suggestedActions(classify: (command: string) => string, conclusion: Conclusion): SuggestedAction[] {
  return conclusion.suggestedActions.map((action) => ({
    command: action.command,
    class: classify(action.command),
    ...(action.rationale ? { rationale: action.rationale } : {}),
  }));
}
