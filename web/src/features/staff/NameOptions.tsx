// A select's options, one a named thing of the staff's choices (a complex, a hall, a ticket
// group, a film category): its id the value, its name in the page's language.
import { useTranslation } from 'react-i18next';
import { localizedName } from '../../lib/localized';

export function NameOptions({
  items,
}: {
  items: readonly { id: number | string; name: string; nameEn?: string | null }[];
}) {
  const { i18n } = useTranslation();
  return items.map((item) => (
    <option key={item.id} value={item.id}>
      {localizedName(i18n.language, item.name, item.nameEn)}
    </option>
  ));
}
