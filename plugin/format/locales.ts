/**
 * The answer of `GET /i18n/locales`, as Strapi 4.26.2's i18n plugin writes it: the locales in
 * order, each `{ id, name, code, createdAt, updatedAt, isDefault }`, flat (no `data` envelope).
 */
import type { LocaleEntry } from '../storage/strapi-locales.js';

export interface LocaleAnswer {
  readonly id: number;
  readonly name: string | null;
  readonly code: string;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
  readonly isDefault: boolean;
}

export function formatLocales(entries: readonly LocaleEntry[], defaultLocale: string): LocaleAnswer[] {
  return entries.map((entry) => ({
    id: entry.id,
    name: entry.name,
    code: entry.code,
    createdAt: entry.createdAt?.toISOString() ?? null,
    updatedAt: entry.updatedAt?.toISOString() ?? null,
    isDefault: entry.code === defaultLocale,
  }));
}
