"""schemathesis against the service's own OpenAPI document (in-process, bounded examples).

Every generated request, valid or not, must get a documented status and a body matching the
documented schema, and never a 5xx.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from hupai.server.app import create_app  # noqa: E402

schema = schemathesis.openapi.from_asgi("/openapi.json", create_app())


def not_a_server_error(ctx, response, case) -> None:  # type: ignore[no-untyped-def]
    assert response.status_code < 500, f"{case.method} {case.path} -> {response.status_code}: {response.text}"


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_conforms(case) -> None:  # type: ignore[no-untyped-def]
    response = case.call()
    case.validate_response(
        response,
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance],
    )
