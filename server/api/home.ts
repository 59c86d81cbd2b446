/**
 * Handlers of the home page (src/api/contract/home.ts): the tag tree, the host list with its
 * online/tag/country filters, countries, app pictures (banners) and the base config.
 *
 * The host list is one statement over users, countries and the hub's stored presence
 * (person-summary.ts), ordered by (online group, user id): a total order, so LIMIT/OFFSET
 * pages neither repeat nor skip a host while nothing changes.
 */
import type * as z from 'zod/mini';
import type { home } from '../../src/api/contract';
import { ConfigKey } from '../../src/api/contract/config';
import { ResultCode } from '../../src/api/codes';
import {
  BaseConfigKey, OnlineStatusFilter, TEXT_APP_ID_NEEDED, type AnchorCard, type BaseConfig,
} from '../../src/api/contract/home';
import { TranslatorConfig } from '../../src/api/contract/translator';
import { appConfig } from '../db/app-config';
import type { Db } from '../db/database';
import { UserType } from '../users/users';
import type { Faults } from './faults';
import {
  NOT_BLOCKED_SQL, ONLINE_FILTER_SQL, PERSON_COLUMNS, PERSON_FROM, createTagLookup, pageWindow, toPersonSummary,
  type PersonRow,
} from './person-summary';
import { ApiError, requireSession, type HandlersOf } from './transport';

interface AnchorFilter {
  caller: number;
  status: number;
  tagId: number;
  /** JSON array of country ids, or null for every country. */
  countries: string | null;
}

export function homeHandlers({ db, faults }: { db: Db; faults: Pick<Faults, 'failBaseConfigIfPending'> }): HandlersOf<typeof home> {
  const parentTags = db.prepare<[], { id: number; name: string }>('SELECT id, name FROM tags WHERE parent_id IS NULL ORDER BY id');
  const childTags = db.prepare<[], { id: number; name: string; parent_id: number }>(
    'SELECT id, name, parent_id FROM tags WHERE parent_id IS NOT NULL ORDER BY parent_id, id',
  );

  const hosts = `SELECT ${PERSON_COLUMNS},
      coalesce((SELECT m.media_url FROM user_media m WHERE m.user_id = u.id AND m.media_type = 1 ORDER BY m.sort LIMIT 1), u.icon) AS cover
    FROM ${PERSON_FROM}
    WHERE u.user_type = ${UserType.host} AND u.id <> @caller AND ${NOT_BLOCKED_SQL}
      AND (@tagId = 0 OR EXISTS (
        SELECT 1 FROM user_tags ut JOIN tags t ON t.id = ut.tag_id
         WHERE ut.user_id = u.id AND (t.id = @tagId OR t.parent_id = @tagId)))
      AND (@countries IS NULL OR u.country_id IN (SELECT value FROM json_each(@countries)))`;
  const anchorPage = db.prepare<AnchorFilter & { limit: number; offset: number }, PersonRow & { cover: string }>(
    `SELECT * FROM (${hosts}) WHERE ${ONLINE_FILTER_SQL} ORDER BY grp, id LIMIT @limit OFFSET @offset`,
  );
  const anchorCount = db.prepare<AnchorFilter, number>(`SELECT count(*) FROM (${hosts}) WHERE ${ONLINE_FILTER_SQL}`).pluck();
  const tagsOf = createTagLookup(db);

  const countries = db.prepare<[], { id: number; name: string; code: string }>('SELECT id, name, code FROM countries ORDER BY id');
  const pics = db.prepare<[number], { id: number; pic_type: number; title: string; pic_url: string; link_url: string | null }>(
    'SELECT id, pic_type, title, pic_url, link_url FROM app_pics WHERE pic_type = ? ORDER BY sort, id',
  );
  const configValue = appConfig(db);

  /** Read per request, so an app config edited at run time applies at once. */
  function baseConfig(): z.input<typeof BaseConfig> {
    const count = Number(configValue.get(BaseConfigKey.nonPaidUserCount) ?? 0);
    return {
      businessConfig: {
        enabled: configValue.get(BaseConfigKey.enabled) === '1',
        nonPaidUserCount: Number.isSafeInteger(count) && count >= 0 ? count : 0,
        microsoft_translator_config_json: translatorConfig(),
      },
    };
  }

  function translatorConfig(): z.input<typeof BaseConfig>['businessConfig']['microsoft_translator_config_json'] {
    const raw = configValue.get(ConfigKey.translator);
    if (raw === undefined) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return null;
    }
    const config = TranslatorConfig.safeParse(parsed);
    if (!config.success) return null;
    const { key, region, endpoint } = config.data;
    return { key, area: region, ...(endpoint === undefined ? {} : { endpoint }) };
  }

  return {
    indexTag() {
      return {
        parentTags: parentTags.all().map((t) => ({ id: t.id, tagName: t.name })),
        childrenTags: childTags.all().map((t) => ({ id: t.id, tagName: t.name, parentId: t.parent_id })),
      };
    },

    anchorList(ctx) {
      const { currentPage, pageSize, onlineStatus, tagId, countryIds } = ctx.body;
      const filter: AnchorFilter = {
        caller: requireSession(ctx).userId,
        status: onlineStatus ?? OnlineStatusFilter.all,
        tagId: tagId ?? 0,
        countries: countryIds && countryIds.length > 0 ? JSON.stringify(countryIds) : null,
      };
      const rows = anchorPage.all({ ...filter, ...pageWindow(currentPage, pageSize) });
      const tags = tagsOf(rows.map((r) => r.id));
      const list = rows.map((row): z.input<typeof AnchorCard> => ({
        ...toPersonSummary(row),
        videoPrice: row.video_price,
        cover: row.cover,
        tags: tags.get(row.id) ?? [],
      }));
      return { list, total: anchorCount.get(filter) ?? 0, currentPage, pageSize };
    },

    getCountryList() {
      return countries.all().map((c) => ({ countryId: c.id, countryName: c.name, countryCode: c.code }));
    },

    getAppPicByType(ctx) {
      return pics.all(ctx.body.type).map((p) => ({
        id: p.id, type: p.pic_type, title: p.title, picUrl: p.pic_url, linkUrl: p.link_url,
      }));
    },

    // By app id alone: one must be named (the same config for every app id here).
    getBaseConfigForIntoBagV2(ctx) {
      if (!ctx.appId.trim()) throw new ApiError(ResultCode.invalidRequest, TEXT_APP_ID_NEEDED);
      faults.failBaseConfigIfPending(ctx.session?.userId);
      return baseConfig();
    },

    getBaseConfigForIntoBagV4(ctx) {
      faults.failBaseConfigIfPending(requireSession(ctx).userId);
      return baseConfig();
    },
  };
}
