import { describe, expect, it } from 'vitest';
import type { Presentation } from '../../lib/api/types';
import { lookStyle, programme } from './programme';

const at = (id: number, featureId: number, dateTime: string) =>
  ({ id, featureId, dateTime }) as Presentation;

describe('programme', () => {
  it('groups by feature in order of first screening, each in start order', () => {
    const list = [
      at(1, 5, '2026-11-28T17:30:00Z'),
      at(2, 1, '2026-11-27T17:30:00Z'),
      at(3, 5, '2026-11-26T17:30:00Z'),
      at(4, 1, '2026-11-26T19:30:00Z'),
    ];
    const groups = programme(list);
    expect(groups.map((g) => g.featureId)).toEqual([5, 1]);
    expect(groups[0].screenings.map((p) => p.id)).toEqual([3, 1]);
    expect(groups[1].screenings.map((p) => p.id)).toEqual([4, 2]);
    expect(groups[1].sample.id).toBe(4);
  });

  it('is empty for no presentations', () => {
    expect(programme([])).toEqual([]);
  });
});

describe('lookStyle', () => {
  it('sets the three colours, or nothing', () => {
    expect(lookStyle({ primary: '#8a1538', background: '#fbf6ee', text: '#2a1a14' })).toEqual({
      '--mini-site-primary': '#8a1538',
      '--mini-site-background': '#fbf6ee',
      '--mini-site-text': '#2a1a14',
    });
    expect(lookStyle(null)).toEqual({});
  });
});
