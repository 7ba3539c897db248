import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

/** What a labelled field takes: its label, its text, and the element's other attributes. */
type FieldProps<Attributes> = Omit<Attributes, 'id' | 'value' | 'onChange'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
};

/** A control under its label, the label pointing at the control's id. */
function Labelled({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * A labelled one-line field in the vault's style. Browsers offer no earlier
 * entries unless `autoComplete` says otherwise: these are private notes.
 */
export function TextField({ label, value, onChange, className, ...attributes }: FieldProps<InputHTMLAttributes<HTMLInputElement>>) {
  const id = useId();
  return (
    <Labelled id={id} label={label}>
      <input
        id={id}
        className={className ? `field ${className}` : 'field'}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        {...attributes}
      />
    </Labelled>
  );
}

/** A labelled text area in the vault's style, resizable in height; `className` sets its minimum height. */
export function TextAreaField({ label, value, onChange, className, ...attributes }: FieldProps<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  const id = useId();
  return (
    <Labelled id={id} label={label}>
      <textarea id={id} className={`field resize-y ${className ?? 'min-h-24'}`} value={value} onChange={(e) => onChange(e.target.value)} {...attributes} />
    </Labelled>
  );
}

/** A labelled file picker in the vault's style: the one file chosen, or none. */
export function FileField({
  label,
  accept,
  disabled,
  onChange,
}: {
  label: string;
  accept: string;
  disabled?: boolean;
  onChange: (file: File | undefined) => void;
}) {
  const id = useId();
  return (
    <Labelled id={id} label={label}>
      <input id={id} type="file" accept={accept} className="field" disabled={disabled} onChange={(e) => onChange(e.target.files?.[0])} />
    </Labelled>
  );
}
