/**
 * The package editor (/admin/packages/{id}, /admin/packages/new): every seed field of a package, the
 * included services picked from all services and put in order, the features, the active toggle, and the
 * BEST VALUE rule applied live to the values on screen (the same rule the public card uses).
 */
import { actions } from 'astro:actions';
import { useState } from 'react';
import { EditorShell } from '../../components/admin/EditorShell';
import { Section, TextArea, TextInput, NumberInput, Toggle } from '../../components/admin/fields';
import { RichTextField } from '../../components/admin/RichTextField';
import { PictureSection } from '../../components/admin/ImageField';
import { ObjectListField } from '../../components/admin/ObjectListField';
import { OrderedPickField, type PickOption } from '../../components/admin/OrderedPickField';
import { useRecordEditor, type RecordActions } from '../../components/admin/use-record-editor';
import { packageCardView } from '../../shared/cards';
import { PACKAGE_FEATURES_SHOWN, PACKAGE_SERVICES_SHOWN, PACKAGE_TEXT_CUT } from '../../shared/constants';
import { formatMoney } from '../../shared/money';
import { bestValueRule, bestValueShortfall } from '../../shared/packages';
import { packageSchema } from '../../shared/schemas/catalog';
import { LIMITS } from '../../shared/schemas/fields';

export interface PackageFeatureValue {
  title: string;
  description: string;
}

export interface PackageEditorValues extends Record<string, unknown> {
  name: string;
  description: string;
  picture: string;
  pictureAlt: string;
  shortText: string;
  priceSetup: number | null | string;
  priceMonthly: number | null | string;
  includedServiceIds: string[];
  features: PackageFeatureValue[];
  isActive: boolean;
}

interface Props {
  id?: string | undefined;
  version?: string | undefined;
  fields: PackageEditorValues;
  /** Every service, in public order: what the package can include. */
  services: PickOption[];
  currency: string;
}

/** The public page, or its preview while the saved package is inactive (visitors get a 404 there). */
const publicHref = (id: string, active: boolean) => `/package/${encodeURIComponent(id)}${active ? '' : '?preview'}`;

/** A price as typed: a number counts, anything else (empty, not a number yet) is no price. */
const priceOf = (value: number | null | string) => (typeof value === 'number' ? value : null);

export default function PackageEditor({ id, version, fields: initial, services, currency }: Props) {
  const editor = useRecordEditor<PackageEditorValues>({
    type: 'package',
    actions: actions.admin.packages as unknown as RecordActions,
    schema: packageSchema,
    adminPath: '/admin/packages',
    initial: { id, version, fields: initial },
    label: 'package',
  });
  const { fields, setField, errors } = editor;
  // "View on site" follows the stored status, not the toggle's unsaved position: with nothing unsaved,
  // what is on screen is what is stored.
  const [savedActive, setSavedActive] = useState(initial.isActive);
  if (!editor.dirty && savedActive !== fields.isActive) setSavedActive(fields.isActive);

  const serviceName = new Map(services.map((s) => [s.id, s.label]));
  const card = packageCardView(
    { shortText: fields.shortText, features: fields.features },
    fields.includedServiceIds.map((sid) => ({ id: sid, shortText: '' })),
  );
  const money = (amount: number) => formatMoney(amount, currency);
  const shortfall = bestValueShortfall(fields.includedServiceIds.length, priceOf(fields.priceSetup), money);
  const bestValue = shortfall.length === 0;
  const shownServices = fields.includedServiceIds.slice(0, PACKAGE_SERVICES_SHOWN).map((sid) => serviceName.get(sid) ?? sid);

  return (
    <EditorShell
      editor={editor as never}
      viewHref={editor.id ? publicHref(editor.id, savedActive) : undefined}
      deleteNote="It disappears from the site at once, and from the pages of the services it includes. You can restore it from the activity log."
    >
      <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-4">
          <Section title="Package">
            <TextInput label="Name" value={fields.name} onValue={(v) => setField('name', v)} error={errors.name} required maxLength={LIMITS.name * 2} />
            <TextArea
              label="Short text"
              value={fields.shortText}
              onValue={(v) => setField('shortText', v)}
              error={errors.shortText}
              rows={3}
              hint={card.text ? `Cards show the first ${PACKAGE_TEXT_CUT} characters: “${card.text}”` : `Cards show the first ${PACKAGE_TEXT_CUT} characters.`}
            />
            <RichTextField
              label="Description"
              value={fields.description}
              onValue={(v) => setField('description', v)}
              error={errors.description}
              hint="Shown on the package's page. Scripts, styles and event attributes are removed when you save."
            />
          </Section>
          <Section
            title="Included services"
            description={
              shownServices.length > 0
                ? `Cards show the first ${PACKAGE_SERVICES_SHOWN}: ${shownServices.join(', ')}${card.moreServices > 0 ? ` and “+${card.moreServices} more”` : ''}. The package's page shows all, in this order.`
                : `Cards show the first ${PACKAGE_SERVICES_SHOWN}; the package's page shows all, in this order.`
            }
          >
            <OrderedPickField
              label="Services in this package"
              itemLabel="service"
              options={services}
              value={fields.includedServiceIds}
              onValue={(v) => setField('includedServiceIds', v)}
              error={errors.includedServiceIds ?? Object.entries(errors).find(([k]) => k.startsWith('includedServiceIds.'))?.[1]}
              hint={services.length === 0 ? 'There are no services yet: create them under Services first.' : undefined}
              maxItems={100}
            />
          </Section>
          <Section title="Features" description={`What the package delivers. Cards show the first ${PACKAGE_FEATURES_SHOWN}; the package's page shows all.`}>
            <ObjectListField<PackageFeatureValue>
              label="Features of this package"
              itemLabel="feature"
              items={fields.features}
              onItems={(v) => setField('features', v)}
              newItem={() => ({ title: '', description: '' })}
              nameOf={(f) => f.title}
              error={errors.features}
              maxItems={30}
              renderFields={(feature, index, update) => (
                <>
                  <TextInput label="Title" value={feature.title} onValue={(v) => update({ title: v })} error={errors[`features.${index}.title`]} required maxLength={240} />
                  <TextArea
                    label="Description"
                    value={feature.description}
                    onValue={(v) => update({ description: v })}
                    error={errors[`features.${index}.description`]}
                    rows={2}
                  />
                </>
              )}
            />
          </Section>
        </div>
        <div className="min-w-0 space-y-4">
          <Section title="Status">
            <Toggle
              label="Active"
              checked={fields.isActive}
              onChecked={(v) => setField('isActive', v)}
              hint={
                fields.isActive
                  ? 'Shown on the site: on /packages, on the landing page and at its own address.'
                  : 'Hidden: visitors get a “page not found” at its address. You can still preview it.'
              }
            />
          </Section>
          <Section title="Prices" description="Only signed-in members see prices; visitors are asked to sign up.">
            <NumberInput label={`Setup price (${currency})`} value={fields.priceSetup} onValue={(v) => setField('priceSetup', v)} error={errors.priceSetup} hint="One-off. Leave empty for “Price on request”." />
            <NumberInput
              label={`Monthly price (${currency})`}
              value={fields.priceMonthly}
              onValue={(v) => setField('priceMonthly', v)}
              error={errors.priceMonthly}
              hint="Per month. Leave empty for “Price on request”."
            />
          </Section>
          <Section title="BEST VALUE" description={bestValueRule(money)}>
            <div data-best-value-status={bestValue ? 'yes' : 'no'} aria-live="polite" className="text-sm">
              {bestValue ? (
                <p className="flex flex-wrap items-center gap-2 text-slate-700">
                  <span className="rounded-full bg-brand-600 px-2.5 py-1 text-xs font-bold tracking-wide text-white" data-best-value-preview>
                    BEST VALUE
                  </span>
                  {fields.isActive ? 'Its card shows the badge.' : 'Its card shows the badge once it is active.'}
                </p>
              ) : (
                <p className="text-slate-700">No badge yet: it needs {shortfall.join(' and ')}.</p>
              )}
            </div>
          </Section>
          <PictureSection fields={fields} errors={errors} setField={setField} />
          {editor.id !== undefined && (
            <Section title="Address" description="Changing the URL name moves the page; the old address keeps working (it redirects).">
              <TextInput label="URL name" value={editor.newId} onValue={editor.setNewId} error={errors.id} hint={`/package/${editor.newId || '…'}`} />
            </Section>
          )}
        </div>
      </div>
    </EditorShell>
  );
}
