"""The ``engine`` fixture: each Stacks rule test runs on every engine that imports."""

import pytest
from engines import available_engines


@pytest.fixture(params=available_engines(), ids=lambda cls: cls.__name__)
def engine(request):
    return request.param
