import { describe, expect, it } from 'vitest';
import { isValidTimeZone, isoWithOffset, offsetMinutes, offsetText, zoneAbbr } from './time.ts';

describe('site time', () => {
  it('gives the offset and short name either side of a transition on the hour, asked in any order', () => {
    // New York moves to EDT at 2026-03-08 07:00 UTC.
    for (let round = 0; round < 2; round++) {
      expect(offsetMinutes('America/New_York', new Date('2026-03-08T06:59:59Z'))).toBe(-300);
      expect(offsetMinutes('America/New_York', new Date('2026-03-08T07:00:00Z'))).toBe(-240);
      expect(zoneAbbr('America/New_York', new Date('2026-03-08T06:30:00Z'))).toBe('EST');
      expect(zoneAbbr('America/New_York', new Date('2026-03-08T07:30:00Z'))).toBe('EDT');
    }
  });

  it('is right inside a UTC hour that holds a transition (Lord Howe moves by 30 minutes at 15:30 UTC)', () => {
    for (let round = 0; round < 2; round++) {
      expect(offsetMinutes('Australia/Lord_Howe', new Date('2026-10-03T15:29:00Z'))).toBe(630);
      expect(offsetMinutes('Australia/Lord_Howe', new Date('2026-10-03T15:31:00Z'))).toBe(660);
    }
  });

  it('keeps fractional zones and UTC as the legacy site shows them', () => {
    expect(offsetMinutes('Asia/Kolkata', new Date('2026-11-21T12:00:00Z'))).toBe(330);
    expect(zoneAbbr('UTC', new Date('2026-11-21T12:00:00Z'))).toBe('UTC');
  });

  it('writes a wall time as ISO 8601 with the offset of that moment, and offsets as iCalendar wants them', () => {
    expect(isoWithOffset('2026-03-08 01:30:00', 'America/New_York')).toBe('2026-03-08T01:30:00-05:00');
    expect(isoWithOffset('2026-03-08T03:30:00', 'America/New_York')).toBe('2026-03-08T03:30:00-04:00');
    expect(isoWithOffset('2026-11-21 12:00:00', 'Asia/Kolkata')).toBe('2026-11-21T12:00:00+05:30');
    expect(offsetText(-570, '')).toBe('-0930');
  });

  it('names zones outside the Americas as PHP does (the zone database\'s abbreviation, or its +04 where it has none), winter and summer', () => {
    const winter = new Date('2026-01-15T10:00:00Z'), summer = new Date('2026-07-15T10:00:00Z');
    const names = (zone: string) => [zoneAbbr(zone, winter), zoneAbbr(zone, summer)];
    expect(names('Europe/Paris')).toEqual(['CET', 'CEST']);
    expect(names('europe/paris')).toEqual(['CET', 'CEST']);
    expect(names('Europe/London')).toEqual(['GMT', 'BST']);
    expect(names('Asia/Tokyo')).toEqual(['JST', 'JST']);
    expect(names('Asia/Kolkata')).toEqual(['IST', 'IST']);
    expect(names('Africa/Lagos')).toEqual(['WAT', 'WAT']);
    expect(names('Australia/Sydney')).toEqual(['AEDT', 'AEST']);
    expect(names('Pacific/Auckland')).toEqual(['NZDT', 'NZST']);
    expect(names('Asia/Dubai')).toEqual(['+04', '+04']);
    expect(names('America/Sao_Paulo')).toEqual(['-03', '-03']);
    expect(names('America/New_York')).toEqual(['EST', 'EDT']);
  });

  it('takes the legacy site\'s fixed-offset zones, each all year, named as it names them', () => {
    const summer = new Date('2026-07-15T10:00:00Z');
    const zone = (z: string) => [offsetMinutes(z, summer), zoneAbbr(z, summer)];
    expect(zone('UTC+2')).toEqual([120, 'UTC+2']);
    expect(zone('UTC-5:30')).toEqual([-330, 'UTC-5:30']);
    expect(zone('GMT+0100')).toEqual([60, 'GMT+0100']);
    expect(zone('+2')).toEqual([120, 'GMT+0200']);
    expect(zone('-09:30')).toEqual([-570, 'GMT-0930']);
    expect(zone('A')).toEqual([60, 'A']);
    expect(zone('M')).toEqual([720, 'M']);
    expect(zone('s')).toEqual([-360, 'S']);
    expect(zone('Y')).toEqual([-720, 'Y']);
    expect(zone('Z')).toEqual([0, 'Z']);
    for (const bad of ['J', 'UTC+0530', 'UTC+', 'utc+2', '+99', 'GMT+1x']) expect(isValidTimeZone(bad), bad).toBe(false);
  });
});
