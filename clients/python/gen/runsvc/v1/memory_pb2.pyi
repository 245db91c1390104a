from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetValueRequest(_message.Message):
    __slots__ = ["keys", "scope", "wait"]
    KEYS_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    WAIT_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedScalarFieldContainer[str]
    scope: MemoryScope
    wait: _duration_pb2.Duration
    def __init__(self, scope: _Optional[_Union[MemoryScope, _Mapping]] = ..., keys: _Optional[_Iterable[str]] = ..., wait: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class GetValueResponse(_message.Message):
    __slots__ = ["entries"]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[MemoryEntry]
    def __init__(self, entries: _Optional[_Iterable[_Union[MemoryEntry, _Mapping]]] = ...) -> None: ...

class MemoryEntry(_message.Message):
    __slots__ = ["key", "update_time", "value", "version"]
    KEY_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    key: str
    update_time: _timestamp_pb2.Timestamp
    value: _struct_pb2.Value
    version: int
    def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., version: _Optional[int] = ..., update_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class MemoryScope(_message.Message):
    __slots__ = ["namespace", "run_id"]
    NAMESPACE_FIELD_NUMBER: _ClassVar[int]
    RUN_ID_FIELD_NUMBER: _ClassVar[int]
    namespace: str
    run_id: str
    def __init__(self, run_id: _Optional[str] = ..., namespace: _Optional[str] = ...) -> None: ...

class SetValueRequest(_message.Message):
    __slots__ = ["key", "scope", "value"]
    KEY_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    key: str
    scope: MemoryScope
    value: _struct_pb2.Value
    def __init__(self, scope: _Optional[_Union[MemoryScope, _Mapping]] = ..., key: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class SetValueResponse(_message.Message):
    __slots__ = ["entry"]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    entry: MemoryEntry
    def __init__(self, entry: _Optional[_Union[MemoryEntry, _Mapping]] = ...) -> None: ...

class WatchMemoryRequest(_message.Message):
    __slots__ = ["include_existing", "patterns", "scope"]
    INCLUDE_EXISTING_FIELD_NUMBER: _ClassVar[int]
    PATTERNS_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    include_existing: bool
    patterns: _containers.RepeatedScalarFieldContainer[str]
    scope: MemoryScope
    def __init__(self, scope: _Optional[_Union[MemoryScope, _Mapping]] = ..., patterns: _Optional[_Iterable[str]] = ..., include_existing: bool = ...) -> None: ...

class WatchMemoryResponse(_message.Message):
    __slots__ = ["entry"]
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    entry: MemoryEntry
    def __init__(self, entry: _Optional[_Union[MemoryEntry, _Mapping]] = ...) -> None: ...
