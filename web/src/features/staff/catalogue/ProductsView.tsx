// The concessions sold at the manager's complexes (issue 18 item 3): each with its picture,
// category, price, complexes and whether it is on sale, in menu order; added or changed in a
// dialog. A new price is charged from the next cart priced. Managers only.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../components/ui/Loading';
import { Notice } from '../../../components/ui/Notice';
import { errorMessage } from '../../../lib/apiErrors';
import { formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import { catalogueKeys, productsQuery, type ProductDto } from './api';
import { ProductDialog } from './ProductDialog';
import './catalogue.css';

export function ProductsView() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const products = useQuery(productsQuery());
  const [open, setOpen] = useState<ProductDto | 'new' | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const complexes = products.data?.complexes ?? [];

  const closed = (product: ProductDto | null) => {
    setOpen(null);
    if (product) {
      setSaved(
        t('staffProducts.saved', { name: localizedName(lang, product.name, product.nameEn) }),
      );
      void queryClient.invalidateQueries({ queryKey: catalogueKeys.products });
    }
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
      <div className="catalogue__head">
        <h2 id="products-title" className="backoffice__title">
          {t('staffProducts.title')}
        </h2>
        <button
          type="button"
          className="staff-button"
          disabled={!products.data}
          onClick={() => {
            setSaved(null);
            setOpen('new');
          }}
        >
          {t('staffProducts.add')}
        </button>
      </div>
      <p className="backoffice__intro">{t('staffProducts.intro')}</p>
      <p className="catalogue__status" role="status">
        {saved}
      </p>
      {products.isPending && <Loading block />}
      {products.error && <Notice tone="error" title={errorMessage(t, products.error)} />}
      {products.data && products.data.products.length === 0 && (
        <Notice tone="neutral" title={t('staffProducts.none')} />
      )}
      {products.data && products.data.products.length > 0 && (
        <div
          className="backoffice__scroll"
          tabIndex={0}
          role="region"
          aria-labelledby="products-title"
        >
          <table className="catalogue-table">
            <thead>
              <tr>
                <th scope="col">{t('staffProducts.column')}</th>
                <th scope="col">{t('staffProducts.fields.category')}</th>
                <th scope="col">{t('staffProducts.fields.price')}</th>
                <th scope="col">{t('staffProducts.fields.locationIds')}</th>
                <th scope="col">{t('staffProducts.status')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('staffFilms.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {products.data.products.map((p) => {
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
                        onClick={() => {
                          setSaved(null);
                          setOpen(p);
                        }}
                      >
                        {t('staffFilms.edit')}
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {open && products.data && (
        <ProductDialog
          product={open === 'new' ? null : open}
          complexes={complexes}
          onClose={closed}
        />
      )}
    </section>
  );
}
