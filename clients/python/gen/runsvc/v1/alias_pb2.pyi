from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

ALIAS_SIDE_CANARY: AliasSide
ALIAS_SIDE_PRIMARY: AliasSide
ALIAS_SIDE_THREAD: AliasSide
ALIAS_SIDE_UNSPECIFIED: AliasSide
DESCRIPTOR: _descriptor.FileDescriptor

class Alias(_message.Message):
    __slots__ = ["alias", "canary_percent", "canary_version", "revision", "spec", "update_time", "updated_by", "version"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    CANARY_PERCENT_FIELD_NUMBER: _ClassVar[int]
    CANARY_VERSION_FIELD_NUMBER: _ClassVar[int]
    REVISION_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    UPDATED_BY_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    alias: str
    canary_percent: int
    canary_version: str
    revision: int
    spec: str
    update_time: _timestamp_pb2.Timestamp
    updated_by: str
    version: str
    def __init__(self, spec: _Optional[str] = ..., alias: _Optional[str] = ..., version: _Optional[str] = ..., canary_version: _Optional[str] = ..., canary_percent: _Optional[int] = ..., revision: _Optional[int] = ..., update_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_by: _Optional[str] = ...) -> None: ...

class AliasMove(_message.Message):
    __slots__ = ["subject", "time", "to"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    subject: str
    time: _timestamp_pb2.Timestamp
    to: AliasTarget
    def __init__(self, time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., subject: _Optional[str] = ..., to: _Optional[_Union[AliasTarget, _Mapping]] = ..., **kwargs) -> None: ...

class AliasTarget(_message.Message):
    __slots__ = ["canary_percent", "canary_version", "version"]
    CANARY_PERCENT_FIELD_NUMBER: _ClassVar[int]
    CANARY_VERSION_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    canary_percent: int
    canary_version: str
    version: str
    def __init__(self, version: _Optional[str] = ..., canary_version: _Optional[str] = ..., canary_percent: _Optional[int] = ...) -> None: ...

class DeleteAliasRequest(_message.Message):
    __slots__ = ["alias", "spec"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    alias: str
    spec: str
    def __init__(self, spec: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class DeleteAliasResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetAliasRequest(_message.Message):
    __slots__ = ["alias", "spec"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    alias: str
    spec: str
    def __init__(self, spec: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class GetAliasResponse(_message.Message):
    __slots__ = ["alias", "recent_moves"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    RECENT_MOVES_FIELD_NUMBER: _ClassVar[int]
    alias: Alias
    recent_moves: _containers.RepeatedCompositeFieldContainer[AliasMove]
    def __init__(self, alias: _Optional[_Union[Alias, _Mapping]] = ..., recent_moves: _Optional[_Iterable[_Union[AliasMove, _Mapping]]] = ...) -> None: ...

class GetRolloutRequest(_message.Message):
    __slots__ = ["alias", "max_runs", "spec"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    MAX_RUNS_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    alias: str
    max_runs: int
    spec: str
    def __init__(self, spec: _Optional[str] = ..., alias: _Optional[str] = ..., max_runs: _Optional[int] = ...) -> None: ...

class GetRolloutResponse(_message.Message):
    __slots__ = ["alias", "runs_read", "sides"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    RUNS_READ_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    alias: Alias
    runs_read: int
    sides: _containers.RepeatedCompositeFieldContainer[RolloutSide]
    def __init__(self, alias: _Optional[_Union[Alias, _Mapping]] = ..., sides: _Optional[_Iterable[_Union[RolloutSide, _Mapping]]] = ..., runs_read: _Optional[int] = ...) -> None: ...

class ListAliasHistoryRequest(_message.Message):
    __slots__ = ["alias", "limit", "spec"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    alias: str
    limit: int
    spec: str
    def __init__(self, spec: _Optional[str] = ..., alias: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListAliasHistoryResponse(_message.Message):
    __slots__ = ["moves"]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    moves: _containers.RepeatedCompositeFieldContainer[AliasMove]
    def __init__(self, moves: _Optional[_Iterable[_Union[AliasMove, _Mapping]]] = ...) -> None: ...

class ListAliasesRequest(_message.Message):
    __slots__ = ["spec"]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    spec: str
    def __init__(self, spec: _Optional[str] = ...) -> None: ...

class ListAliasesResponse(_message.Message):
    __slots__ = ["aliases"]
    ALIASES_FIELD_NUMBER: _ClassVar[int]
    aliases: _containers.RepeatedCompositeFieldContainer[Alias]
    def __init__(self, aliases: _Optional[_Iterable[_Union[Alias, _Mapping]]] = ...) -> None: ...

class MoveAliasRequest(_message.Message):
    __slots__ = ["alias", "canary_percent", "canary_version", "if_evaluation", "min_score", "spec", "version"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    CANARY_PERCENT_FIELD_NUMBER: _ClassVar[int]
    CANARY_VERSION_FIELD_NUMBER: _ClassVar[int]
    IF_EVALUATION_FIELD_NUMBER: _ClassVar[int]
    MIN_SCORE_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    alias: str
    canary_percent: int
    canary_version: str
    if_evaluation: str
    min_score: float
    spec: str
    version: str
    def __init__(self, spec: _Optional[str] = ..., alias: _Optional[str] = ..., version: _Optional[str] = ..., canary_version: _Optional[str] = ..., canary_percent: _Optional[int] = ..., if_evaluation: _Optional[str] = ..., min_score: _Optional[float] = ...) -> None: ...

class MoveAliasResponse(_message.Message):
    __slots__ = ["alias"]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    alias: Alias
    def __init__(self, alias: _Optional[_Union[Alias, _Mapping]] = ...) -> None: ...

class RolloutSide(_message.Message):
    __slots__ = ["completed", "cost", "failed", "input_tokens", "latency_p50_ms", "latency_p95_ms", "output_tokens", "reasons", "runs", "settled", "side", "version"]
    class ReasonsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    FAILED_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    LATENCY_P50_MS_FIELD_NUMBER: _ClassVar[int]
    LATENCY_P95_MS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    SETTLED_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    completed: int
    cost: float
    failed: int
    input_tokens: int
    latency_p50_ms: int
    latency_p95_ms: int
    output_tokens: int
    reasons: _containers.ScalarMap[str, int]
    runs: int
    settled: int
    side: AliasSide
    version: str
    def __init__(self, version: _Optional[str] = ..., side: _Optional[_Union[AliasSide, str]] = ..., runs: _Optional[int] = ..., settled: _Optional[int] = ..., completed: _Optional[int] = ..., failed: _Optional[int] = ..., reasons: _Optional[_Mapping[str, int]] = ..., input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cost: _Optional[float] = ..., latency_p50_ms: _Optional[int] = ..., latency_p95_ms: _Optional[int] = ...) -> None: ...

class AliasSide(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
