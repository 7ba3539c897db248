import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { TextAreaField, TextField } from './form-fields';

function Form() {
  const [title, setTitle] = useState('');
  const [notes, setNotes] = useState('');
  return (
    <form>
      <TextField label="Title" value={title} onChange={setTitle} required />
      <TextField label="Username" value="bruce" onChange={() => {}} autoComplete="username" readOnly />
      <TextAreaField label="Notes" className="min-h-40" value={notes} onChange={setNotes} />
      <output>{`${title}|${notes}`}</output>
    </form>
  );
}

describe('labelled fields', () => {
  it('ties each label to its field and hands back the typed text', () => {
    render(<Form />);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Operation Dawn' } });
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'line one\nline two' } });
    expect(screen.getByRole('status').textContent).toBe('Operation Dawn|line one\nline two');
  });

  it('keeps the vault styling, turns autofill off unless asked, and passes other attributes on', () => {
    render(<Form />);
    const title = screen.getByLabelText('Title');
    expect(title.className).toBe('field');
    expect(title.getAttribute('autocomplete')).toBe('off');
    expect(title.hasAttribute('required')).toBe(true);
    expect(screen.getByLabelText('Username').getAttribute('autocomplete')).toBe('username');
    expect(screen.getByLabelText('Notes').className).toBe('field resize-y min-h-40');
  });
});
