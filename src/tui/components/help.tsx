import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import stringWidth from 'string-width';
import { keysOf, type ViewId } from '../core/key-map.js';
import type { Translate } from '../core/i18n.js';
import { padToWidth } from '../core/columns.js';

export interface HelpProps {
  view: ViewId;
  readonly: boolean;
  t: Translate;
  height: number;
}

/** `?`: exactly the keys of the current view (write keys left out under --readonly), from the key map. */
export function Help(props: HelpProps): ReactElement {
  const bindings = keysOf(props.view, { readonly: props.readonly });
  const keyWidth = Math.max(...bindings.map((binding) => stringWidth(binding.key)));
  const perColumn = Math.max(1, props.height - 3);
  const columns: (typeof bindings)[] = [];
  for (let start = 0; start < bindings.length; start += perColumn) columns.push(bindings.slice(start, start + perColumn));
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {props.t('tui.help.title', { view: props.view })}
      </Text>
      <Box flexDirection="row">
        {columns.map((column, index) => (
          <Box key={index} flexDirection="column" marginRight={3}>
            {column.map((binding) => (
              <Text key={`${binding.key}-${binding.action}`}>
                <Text color="yellow">{padToWidth(`<${binding.key}>`, keyWidth + 2)}</Text> {props.t(`tui.key.${binding.action}`)}
              </Text>
            ))}
          </Box>
        ))}
      </Box>
      <Text dimColor>{props.t('tui.help.close')}</Text>
    </Box>
  );
}
