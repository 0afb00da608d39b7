import { describe, expect, it } from 'vitest';
import { serviceChargeLabel } from './serviceChargeLabel';

describe('serviceChargeLabel', () => {
  it("shows the business's Hebrew name in Hebrew", () => {
    expect(serviceChargeLabel('דמי טיפול', 'he', 'Service charge')).toBe('דמי טיפול');
  });
  it('shows the translated label in other languages, never the Hebrew name', () => {
    expect(serviceChargeLabel('דמי טיפול', 'en', 'Service charge')).toBe('Service charge');
    expect(serviceChargeLabel('דמי טיפול', 'ru', 'Сервисный сбор')).toBe('Сервисный сбор');
  });
  it('falls back to the label when the business gave no name', () => {
    expect(serviceChargeLabel('', 'he', 'דמי שירות')).toBe('דמי שירות');
  });
});
