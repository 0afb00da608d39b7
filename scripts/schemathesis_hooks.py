"""Kupa's check for `make schemathesis`: a request generated from the schema as valid must not be
refused as malformed. schemathesis's own positive_data_acceptance counts every 422 and 400 as a
refusal, but most of Kupa's 422s are the catalogue's answers to a well-formed request about
things that are not there or not allowed (codeNotFound, a seat that is not in the hall). What
the server must never say to a schema-valid request is that its shape is wrong: `formValidation`
(or `invalid_mobileNumber`, the mobile's shape) or, with the test token, `recaptcha`."""

import schemathesis
from schemathesis import GenerationMode

SHAPE_CODES = {"formValidation", "invalid_mobileNumber", "recaptcha"}


@schemathesis.check
def valid_requests_are_not_refused_as_malformed(ctx, response, case):
    if case.meta is None or case.meta.generation.mode != GenerationMode.POSITIVE:
        return None
    if response.status_code not in (400, 422):
        return None
    try:
        code = response.json()["error"]["code"]
    except Exception:
        return None
    if code in SHAPE_CODES:
        raise AssertionError(
            f"a schema-valid request was refused as malformed: {response.status_code} {code}: "
            f"{response.json()['error'].get('message')}"
        )
    return None
