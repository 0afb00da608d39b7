// The concessions sold at the manager's complexes (issue 18 item 3): each with its picture,
// category, price, complexes and whether it is on sale, in menu order; added or changed in a
// dialog. A new price is charged from the next cart priced. Managers only.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { StaffTable } from '../backoffice/StaffTable';
import { useEditing } from './useEditing';
import { catalogueKeys, productsQuery, type ProductDto } from './api';
import { CatalogueHead } from './CatalogueHead';
import { ProductDialog } from './ProductDialog';
import './catalogue.css';

export function ProductsView() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const products = useQuery(productsQuery());
  const editing = useEditing<ProductDto>();
  const complexes = products.data?.complexes ?? [];

  const closed = (product: ProductDto | null) => {
    editing.closed(
      product &&
        t('staffProducts.saved', { name: localizedName(lang, product.name, product.nameEn) }),
    );
    if (product) void queryClient.invalidateQueries({ queryKey: catalogueKeys.products });
  };
  const soldAt = (p: ProductDto) => {
    if (p.everywhere) return t('staffProducts.everywhereShort');
    return p.locationIds
      .map((id) => complexes.find((c) => c.id === id))
      .filter((c) => c !== undefined)
      .map((c) => localizedName(lang, c.name, c.nameEn))
      .join(', ');
  };

  return (
    <section className="backoffice catalogue" aria-labelledby="products-title">
      <CatalogueHead
        titleId="products-title"
        title={t('staffProducts.title')}
        addLabel={t('staffProducts.add')}
        canAdd={!!products.data}
        onAdd={editing.add}
        intro={t('staffProducts.intro')}
        saved={editing.saved}
      />
      <StaffTable
        query={products}
        rows={(d) => d.products.length}
        labelledBy="products-title"
        tableClass="catalogue-table"
        empty={t('staffProducts.none')}
        columns={[
          t('staffProducts.column'),
          t('staffProducts.fields.category'),
          t('staffProducts.fields.price'),
          t('staffProducts.fields.locationIds'),
          t('staffProducts.status'),
          { hidden: t('staffFilms.actions') },
        ]}
      >
        {(data) =>
          data.products.map((p) => {
            const name = localizedName(lang, p.name, p.nameEn);
            return (
              <tr key={p.id}>
                <th scope="row">
                  <span className="catalogue-table__product">
                    {p.imageVersion ? (
                      <img
                        className="catalogue-table__swatch"
                        src={p.img}
                        alt=""
                        width={32}
                        height={32}
                      />
                    ) : (
                      <span
                        className="catalogue-table__swatch"
                        style={{ background: p.color }}
                        aria-hidden="true"
                      >
                        {p.icon}
                      </span>
                    )}
                    {name}
                  </span>
                </th>
                <td>
                  <bdi>{p.category}</bdi>
                </td>
                <td className="catalogue-table__nowrap">
                  <bdi>{formatMoney(p.price, lang)}</bdi>
                </td>
                <td>{soldAt(p)}</td>
                <td className="catalogue-table__nowrap">
                  {p.onSale ? t('staffProducts.on') : t('staffProducts.off')}
                </td>
                <td>
                  <button
                    type="button"
                    className="staff-button staff-button--quiet"
                    aria-label={t('staffFilms.editNamed', { name })}
                    onClick={() => editing.edit(p)}
                  >
                    {t('staffFilms.edit')}
                  </button>
                </td>
              </tr>
            );
          })
        }
      </StaffTable>
      {editing.open && products.data && (
        <ProductDialog
          product={editing.open === 'new' ? null : editing.open}
          complexes={complexes}
          onClose={closed}
        />
      )}
    </section>
  );
}
