import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useForm } from 'react-hook-form'
import { ApiError } from '../../../api/api-error'
import { Field } from './field'
import { errorLines, setServerErrors } from './server-errors'

function NameForm({ failure }: { failure: unknown }) {
  const form = useForm<{ full_name: string; email: string }>({ defaultValues: { full_name: '', email: '' } })
  const { errors } = form.formState
  return (
    <form
      onSubmit={form.handleSubmit(() => {
        const unclaimed = setServerErrors(form.setError, failure, { full_name: 'full_name', email: 'email' })
        form.setError('root', { message: unclaimed.join(',') })
      })}
    >
      <Field id="name" label="Name" hint="As on your certificate" error={errors.full_name?.message}>
        {(control) => <input {...control} {...form.register('full_name')} />}
      </Field>
      <Field id="email" label="Email" error={errors.email?.message}>
        {(control) => <input {...control} {...form.register('email')} />}
      </Field>
      <p>unclaimed: {errors.root?.message}</p>
      <button type="submit">Save</button>
    </form>
  )
}

describe('form components', () => {
  it('put the server errors on their fields, tied to the control, and return the paths no field shows', async () => {
    const failure = new ApiError(400, 'validation_error', 'Invalid input.', {
      full_name: ['Ensure this field has no more than 150 characters.', 'A second message.'],
      avatar: ['Not an image.'],
    })
    render(<NameForm failure={failure} />)
    const name = screen.getByLabelText('Name')
    expect(name).toHaveAttribute('aria-invalid', 'false')
    expect(name).toHaveAccessibleDescription('As on your certificate')

    await userEvent.click(screen.getByRole('button', { name: 'Save' }))

    expect(name).toHaveAttribute('aria-invalid', 'true')
    expect(name).toHaveAccessibleDescription(
      'As on your certificate Ensure this field has no more than 150 characters.',
    )
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'false')
    expect(screen.getByText('unclaimed: avatar')).toBeInTheDocument()
  })

  it('lists only the messages no field shows, with their paths', () => {
    const errors = {
      title: ['Too long.'],
      'questions.3.options': ['Exactly one option must be correct.'],
      '': ['Bad.'],
    }
    expect(errorLines(errors, ['title'])).toEqual(['questions.3.options: Exactly one option must be correct.', 'Bad.'])
  })
})
