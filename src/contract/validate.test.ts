import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { arg, withValidateCallback } from './args.ts';
import { RestError } from './errors.ts';
import { compileArgs, validateArgs } from './validate.ts';

async function refusal(args: Parameters<typeof compileArgs>[0], params: Record<string, unknown>) {
  try {
    await validateArgs(compileArgs(args), params);
  } catch (e) {
    if (e instanceof RestError) return e.toBody();
    throw e;
  }
  throw new Error('accepted');
}

describe('integer arguments beyond what the store holds', () => {
  // rest_is_integer reads a numeric string as a float: a whole number, then out of the declared bounds.
  it('are out of the declared bounds, as the legacy site says, whether sent as text or as a JSON number', async () => {
    // An exponent past a float's range is PHP's INF, an integer to rest_is_integer too.
    for (const per_page of ['9223372036854775807', 2 ** 63, '1e20', '1e400', '-1e400']) {
      const body = await refusal({ per_page: arg.integer({ minimum: 1, maximum: 100 }) }, { per_page });
      expect(body.data).toMatchObject({
        status: 400,
        params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
        details: { per_page: { code: 'rest_out_of_bounds' } },
      });
    }
  });

  it('are still refused without a declared bound (the store keeps exact integers only)', async () => {
    for (const id of ['9223372036854775808', '-1e400']) {
      const body = await refusal({ id: arg.integer() }, { id });
      expect(body.data).toMatchObject({ details: { id: { code: 'rest_out_of_bounds' } } });
    }
  });
});

describe('integer arguments with declared bounds', () => {
  // rest_validate_integer_value_from_schema checks the number's bounds first, then that it is whole.
  it('refuse a number outside them as out of bounds, whole or not, and a fraction inside them as not an integer', async () => {
    const args = { page: arg.integer({ minimum: 1 }) };
    for (const page of ['0.5', '5e-324', 0.5, '-3']) {
      expect((await refusal(args, { page })).data?.details, String(page)).toEqual({ page: { code: 'rest_out_of_bounds', message: 'page must be greater than or equal to 1', data: null } });
    }
    expect((await refusal(args, { page: '1.5' })).data?.details).toEqual({ page: { code: 'rest_invalid_type', message: 'page is not of type integer.', data: { param: 'page' } } });
  });
});

describe('arguments with validate callbacks of their own', () => {
  const args = {
    per_page: arg.integer({ minimum: 1, maximum: 100 }),
    filter: withValidateCallback(arg.custom({ validate: (v) => v === 'ok', sanitize: String })),
    page: arg.integer(),
  };

  // has_valid_params runs the callbacks; sanitize_params checks the other typed arguments only after they pass.
  it('are checked first, and alone name the refusal when one fails', async () => {
    expect(await refusal(args, { per_page: 'x', filter: 'bad', page: 'y' })).toMatchObject({ message: 'Invalid parameter(s): filter' });
  });

  it('let the schema checks of the others run when they pass', async () => {
    expect(await refusal(args, { per_page: 'x', filter: 'ok', page: 'y' })).toMatchObject({ message: 'Invalid parameter(s): per_page, page' });
  });
});

describe('array arguments', () => {
  it('report the first item that fails, as rest_validate_value_from_schema stops there', async () => {
    const item = z.object({ method: z.enum(['POST', 'PUT']) });
    const body = await refusal({ requests: arg.array(item) }, { requests: [{ method: 'POST' }, { method: 'GET' }, { method: 'HEAD' }] });
    expect(body.data).toMatchObject({ params: { requests: 'requests[1][method] is not one of POST and PUT.' }, details: { requests: { code: 'rest_not_in_enum' } } });
  });
});

describe('enum arguments', () => {
  it('refuse a value of another type as not of their type, before the enum check', async () => {
    const args = { validation: arg.enum(['require-all-validate', 'normal']) };
    expect((await refusal(args, { validation: ['x'] })).data).toMatchObject({ params: { validation: 'validation is not of type string.' }, details: { validation: { code: 'rest_invalid_type', data: { param: 'validation' } } } });
    expect((await refusal(args, { validation: 'x' })).data).toMatchObject({ params: { validation: 'validation is not one of require-all-validate and normal.' } });
  });
});

describe('a JSON null', () => {
  const args = {
    per_page: arg.integer({ minimum: 5, maximum: 200, default: 25 }),
    items: arg.array(z.string()),
    filter: withValidateCallback(arg.custom({ validate: (v) => v === 'ok', sanitize: String })),
    extra: arg.untyped(),
  };
  const nulls = (...names: string[]) => validateArgs(compileArgs(args), {}, undefined, undefined, [Object.fromEntries(names.map((n) => [n, null]))]);

  // sanitize_params passes every sent value of a typed argument to rest_parse_request_arg, null included.
  it('is checked against the declared type, default or not', async () => {
    const body = await nulls('per_page', 'items').then(
      () => null,
      (e: RestError) => e.toBody(),
    );
    expect(body).toMatchObject({ message: 'Invalid parameter(s): per_page, items' });
    expect(body?.data).toMatchObject({ params: { per_page: 'per_page is not of type integer.', items: 'items is not of type array.' } });
  });

  // has_valid_params skips a null, and an untyped argument has no type to check.
  it('is absent to an argument with its own callback and to an untyped one', async () => {
    expect(await nulls('filter', 'extra')).toEqual({ per_page: 25 });
  });
});
