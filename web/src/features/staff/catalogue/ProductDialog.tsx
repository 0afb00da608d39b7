// A product added or changed: its names, category, price (typed in shekels, sent in agorot),
// picture (an icon on a colour, or an uploaded JPEG or PNG shown before it is sent, or taken
// away), menu order, on or off, and which of the manager's complexes sell it. Other businesses'
// complexes that sell it are named, not ticked: they keep selling it.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { localizedName } from '../../../lib/localized';
import { Modal } from '../programme/Modal';
import { StepActions } from '../programme/FormParts';
import {
  addProduct,
  changeProduct,
  removeProductImage,
  uploadProductImage,
  type ProductComplex,
  type ProductDto,
} from './api';
import { Field, FieldGroup, PictureField } from './Field';
import { usePictureFile } from './usePictureFile';
import {
  PRODUCT_CATEGORIES,
  emptyProduct,
  productBody,
  productSchema,
  productValues,
  serverFieldErrors,
  type ProductField,
  type ProductValues,
} from './model';

const FIELDS: readonly ProductField[] = [
  'name',
  'nameEn',
  'category',
  'price',
  'icon',
  'color',
  'sort',
  'onSale',
  'everywhere',
  'locationIds',
];

export function ProductDialog({
  product,
  complexes,
  onClose,
}: {
  /** null: a new product. */
  product: ProductDto | null;
  complexes: readonly ProductComplex[];
  onClose: (saved: ProductDto | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const own = useMemo(() => complexes.filter((c) => c.own), [complexes]);
  const ownIds = useMemo(() => new Set(own.map((c) => c.id)), [own]);
  // Other businesses' complexes that sell it now: they keep it whatever is ticked here.
  const others = complexes.filter(
    (c) => !c.own && product !== null && product.locationIds.includes(c.id),
  );
  const allMine = complexes.every((c) => c.own);
  const mayBeEverywhere = allMine || (product?.everywhere ?? false);
  const schema = useMemo(() => productSchema(others.length > 0), [others.length]);
  const form = useForm<ProductValues>({
    resolver: zodResolver(schema),
    defaultValues: product ? productValues(product, ownIds) : emptyProduct(),
  });
  const { register, handleSubmit, formState, setError, control } = form;
  const everywhere = useWatch({ control, name: 'everywhere' });
  const [icon, color] = useWatch({ control, name: ['icon', 'color'] });
  const [failure, setFailure] = useState<string | null>(null);
  // The product written so far: a new one once created (a failed upload then retries on it).
  const [written, setWritten] = useState<ProductDto | null>(product);
  // The picture's change on save: a file to upload, or the uploaded one taken away.
  const upload = usePictureFile('staffProducts.upload', 'image');
  const [removing, setRemoving] = useState(false);

  const errorOf = (field: ProductField) => {
    const rule = formState.errors[field]?.message;
    if (!rule) return undefined;
    return t(`staffProducts.rules.${rule}`, {
      field: t(`staffProducts.fields.${field}`),
      defaultValue: t('staffProducts.rules.invalid'),
    });
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    let saved: ProductDto;
    try {
      const body = productBody(values);
      saved = (written ? await changeProduct(written.id, body) : await addProduct(body)).product;
      setWritten(saved);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'formValidation') {
        const fields = serverFieldErrors(error.params, FIELDS);
        for (const [f, rule] of Object.entries(fields)) {
          setError(f as ProductField, { type: 'server', message: rule });
        }
        if (Object.keys(fields).length > 0) return;
      }
      setFailure(errorMessage(t, error));
      return;
    }
    try {
      if (upload.file) {
        saved = (await uploadProductImage(saved.id, upload.file)).product;
      } else if (removing && saved.imageVersion) {
        saved = (await removeProductImage(saved.id)).product;
      }
    } catch (error) {
      upload.refused(error);
      // The product itself was saved: the form now edits it.
      return;
    }
    onClose(saved);
  });

  const pick = (file: File | undefined) => {
    setRemoving(false);
    upload.pick(file);
  };

  // What buyers will see: the file chosen, else the uploaded picture (unless it goes), else the
  // icon on its colour.
  const uploaded = written?.imageVersion && !removing ? written.img : null;
  const shown = upload.preview ?? uploaded;

  const name = (c: ProductComplex) => localizedName(lang, c.name, c.nameEn);
  return (
    <Modal
      title={
        product
          ? t('staffProducts.editTitle', {
              name: localizedName(lang, product.name, product.nameEn),
            })
          : t('staffProducts.addTitle')
      }
      onClose={() => onClose(null)}
    >
      <form className="catalogue-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <FieldGroup legend={t('staffProducts.groups.product')}>
          <Field label={t('staffProducts.fields.name')} error={errorOf('name')}>
            <input dir="rtl" lang="he" {...register('name')} />
          </Field>
          <Field label={t('staffProducts.fields.nameEn')} error={errorOf('nameEn')}>
            <input dir="ltr" lang="en" {...register('nameEn')} />
          </Field>
          <Field
            label={t('staffProducts.fields.category')}
            error={errorOf('category')}
            hint={t('staffProducts.categoryHint')}
          >
            <input dir="ltr" list="product-categories" {...register('category')} />
          </Field>
          <datalist id="product-categories">
            {PRODUCT_CATEGORIES.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          <Field
            label={t('staffProducts.fields.price')}
            error={errorOf('price')}
            hint={t('staffProducts.priceHint')}
          >
            <input type="text" inputMode="decimal" dir="ltr" {...register('price')} />
          </Field>
          <Field label={t('staffProducts.fields.sort')} error={errorOf('sort')}>
            <input type="number" inputMode="numeric" min={0} dir="ltr" {...register('sort')} />
          </Field>
          <label className="catalogue-check">
            <input type="checkbox" {...register('onSale')} />
            {t('staffProducts.fields.onSale')}
          </label>
        </FieldGroup>
        <FieldGroup legend={t('staffProducts.groups.picture')}>
          <div className="catalogue-poster">
            {shown ? (
              <img
                className="catalogue-picture__preview"
                src={shown}
                alt={
                  upload.preview
                    ? t('staffProducts.upload.preview')
                    : t('staffProducts.upload.current')
                }
                width={96}
                height={96}
              />
            ) : (
              <div
                className="catalogue-swatch"
                style={{ background: color }}
                role="img"
                aria-label={t('staffProducts.upload.generated')}
              >
                {icon}
              </div>
            )}
            <PictureField texts="staffProducts.upload" error={upload.error} onPick={pick} />
          </div>
          {written?.imageVersion && !upload.file && (
            <div className="catalogue-picture__remove">
              <button
                type="button"
                className="staff-button staff-button--quiet"
                aria-pressed={removing}
                onClick={() => setRemoving((r) => !r)}
              >
                {removing ? t('staffProducts.upload.keep') : t('staffProducts.upload.remove')}
              </button>
              {removing && (
                <p className="catalogue-field__hint" role="status">
                  {t('staffProducts.upload.removing')}
                </p>
              )}
            </div>
          )}
          <Field label={t('staffProducts.fields.icon')} error={errorOf('icon')}>
            <input {...register('icon')} />
          </Field>
          <Field label={t('staffProducts.fields.color')} error={errorOf('color')}>
            <input type="color" {...register('color')} />
          </Field>
        </FieldGroup>
        <fieldset
          className="catalogue-group"
          aria-describedby={errorOf('locationIds') ? 'product-complexes-error' : undefined}
        >
          <legend>{t('staffProducts.fields.locationIds')}</legend>
          {mayBeEverywhere && (
            <label className="catalogue-check">
              <input type="checkbox" {...register('everywhere')} />
              {t('staffProducts.everywhere')}
            </label>
          )}
          {!everywhere && (
            <ul className="catalogue-complexes">
              {own.map((c) => (
                <li key={c.id}>
                  <label className="catalogue-check">
                    <input type="checkbox" value={String(c.id)} {...register('locationIds')} />
                    {name(c)}
                  </label>
                </li>
              ))}
            </ul>
          )}
          {!everywhere && others.length > 0 && (
            <p className="catalogue-field__hint">
              {t('staffProducts.othersSell', { list: others.map(name).join(', ') })}
            </p>
          )}
          {errorOf('locationIds') && (
            <p id="product-complexes-error" className="catalogue-field__error">
              {errorOf('locationIds')}
            </p>
          )}
          {errorOf('everywhere') && (
            <p className="catalogue-field__error">{errorOf('everywhere')}</p>
          )}
        </fieldset>
        <StepActions
          failure={failure}
          label={written ? t('staffProducts.save') : t('staffProducts.create')}
          disabled={formState.isSubmitting}
          backLabel={t('staffProducts.close')}
          onBack={() => onClose(null)}
        />
      </form>
    </Modal>
  );
}
