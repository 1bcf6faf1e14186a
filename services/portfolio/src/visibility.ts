import { Visibility } from '@green-impact/proto/greenimpact/common/v1/common';
import { InvalidArgumentError } from '@green-impact/shared/errors';
import type { VisibilityName } from './entities.js';

/** Contract enum → stored name; UNSPECIFIED (or absent) means "not given". */
export function visibilityName(value: Visibility | undefined, field: string): VisibilityName | undefined {
  if (value === undefined || value === Visibility.VISIBILITY_UNSPECIFIED) return undefined;
  if (value === Visibility.VISIBILITY_PRIVATE) return 'private';
  if (value === Visibility.VISIBILITY_PUBLIC) return 'public';
  throw new InvalidArgumentError(`${field} must be public or private.`);
}

export function visibilityEnum(name: VisibilityName): Visibility {
  return name === 'public' ? Visibility.VISIBILITY_PUBLIC : Visibility.VISIBILITY_PRIVATE;
}
