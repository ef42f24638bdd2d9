import { useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { FieldShell, inputClass } from './field';

export interface ComboboxOption {
  value: string;
  label: string;
}

interface ComboboxProps {
  id?: string;
  label: ReactNode;
  options: ComboboxOption[];
  /** The chosen option's value ('' for none), or with `freeText` whatever was typed. */
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  error?: string;
  hint?: ReactNode;
  placeholder?: string;
  autoComplete?: string;
  /** Accept typed text that matches no option (a state the list lacks); otherwise only an option is taken. */
  freeText?: boolean;
}

/** Case- and accent-insensitive, so "cote" finds "Côte d’Ivoire" and "sao" finds "São Tomé & Príncipe". */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * A text box that filters a long list as you type (WAI-ARIA combobox with a listbox popup, "list autocomplete"):
 * arrows move, Enter picks, Escape closes. For lists too long for a plain select, such as every country.
 */
export function Combobox({
  id,
  label,
  options,
  value,
  onChange,
  onBlur,
  error,
  hint,
  placeholder,
  autoComplete = 'off',
  freeText = false,
}: ComboboxProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const listId = `${inputId}-options`;
  const selectedLabel = options.find((option) => option.value === value)?.label ?? (freeText ? value : '');
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);

  const matches = useMemo(() => {
    if (!query) return options;
    const wanted = fold(query.trim());
    const starts = options.filter((option) => fold(option.label).startsWith(wanted));
    const contains = options.filter(
      (option) => !fold(option.label).startsWith(wanted) && fold(option.label).includes(wanted),
    );
    return [...starts, ...contains];
  }, [options, query]);

  const choose = (option: ComboboxOption) => {
    onChange(option.value);
    setQuery(null);
    setOpen(false);
  };
  const move = (to: number) => {
    const next = Math.max(0, Math.min(matches.length - 1, to));
    setActive(next);
    list.current?.children[next]?.scrollIntoView({ block: 'nearest' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) setOpen(true);
      else move(active + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      move(active - 1);
    } else if (event.key === 'Enter' && open && matches[active]) {
      event.preventDefault();
      choose(matches[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setQuery(null);
      setOpen(false);
    }
  };
  const commit = () => {
    setOpen(false);
    if (query === null) return onBlur?.();
    const exact = options.find((option) => fold(option.label) === fold(query.trim()));
    if (exact) onChange(exact.value);
    else if (freeText) onChange(query.trim());
    else if (!query.trim()) onChange('');
    setQuery(null);
    onBlur?.();
  };
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;

  return (
    <FieldShell id={inputId} label={label} error={error} hint={hint}>
      <div className="relative">
        <input
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && matches[active] ? `${listId}-${active}` : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          autoComplete={autoComplete}
          placeholder={placeholder}
          className={inputClass(!!error)}
          value={query ?? selectedLabel}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={(event) => event.target.select()}
          onClick={() => setOpen(true)}
          onKeyDown={onKeyDown}
          onBlur={commit}
        />
        {open ? (
          <ul
            ref={list}
            id={listId}
            role="listbox"
            aria-label={typeof label === 'string' ? label : undefined}
            className="absolute z-20 mt-1 max-h-60 w-full overflow-auto rounded-lg border border-slate-300 bg-white py-1 text-sm shadow-lg"
          >
            {matches.length === 0 ? (
              <li className="px-3 py-2 text-slate-600" role="presentation">
                {freeText ? 'Not in the list: your text is kept as typed.' : 'No match'}
              </li>
            ) : (
              matches.map((option, index) => (
                <li
                  key={option.value}
                  id={`${listId}-${index}`}
                  role="option"
                  aria-selected={option.value === value}
                  className={`cursor-pointer px-3 py-2 ${index === active ? 'bg-indigo-50 text-indigo-900' : 'text-slate-900'}`}
                  // Keeps the focus in the input, so its blur does not close the list before the click lands.
                  onMouseDown={(event) => event.preventDefault()}
                  onMouseEnter={() => setActive(index)}
                  onClick={() => choose(option)}
                >
                  {option.label}
                </li>
              ))
            )}
          </ul>
        ) : null}
      </div>
    </FieldShell>
  );
}
