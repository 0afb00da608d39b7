// The head of a catalogue list (films, products): its title, the button that adds one, what the
// list is for, and the line that says what was just saved.
export function CatalogueHead({
  titleId,
  title,
  addLabel,
  canAdd,
  onAdd,
  intro,
  saved,
}: {
  titleId: string;
  title: string;
  addLabel: string;
  canAdd: boolean;
  onAdd: () => void;
  intro: string;
  saved: string | null;
}) {
  return (
    <>
      <div className="catalogue__head">
        <h2 id={titleId} className="backoffice__title">
          {title}
        </h2>
        <button type="button" className="staff-button" disabled={!canAdd} onClick={onAdd}>
          {addLabel}
        </button>
      </div>
      <p className="backoffice__intro">{intro}</p>
      <p className="catalogue__status" role="status">
        {saved}
      </p>
    </>
  );
}
