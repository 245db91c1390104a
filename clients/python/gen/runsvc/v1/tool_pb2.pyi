from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.rpc import status_pb2 as _status_pb2
from runsvc.v1 import record_pb2 as _record_pb2
from runsvc.v1 import spec_pb2 as _spec_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class InvokeToolRequest(_message.Message):
    __slots__ = ["arguments", "name", "spec", "timeout", "version"]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    arguments: _struct_pb2.Struct
    name: str
    spec: str
    timeout: _duration_pb2.Duration
    version: str
    def __init__(self, name: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., spec: _Optional[str] = ..., version: _Optional[str] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class InvokeToolResponse(_message.Message):
    __slots__ = ["call_id", "error", "output"]
    CALL_ID_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    call_id: str
    error: _status_pb2.Status
    output: _struct_pb2.Value
    def __init__(self, call_id: _Optional[str] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., error: _Optional[_Union[_status_pb2.Status, _Mapping]] = ...) -> None: ...

class ListToolsRequest(_message.Message):
    __slots__ = ["spec", "version"]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    spec: str
    version: str
    def __init__(self, spec: _Optional[str] = ..., version: _Optional[str] = ...) -> None: ...

class ListToolsResponse(_message.Message):
    __slots__ = ["tools"]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    tools: _containers.RepeatedCompositeFieldContainer[ToolInfo]
    def __init__(self, tools: _Optional[_Iterable[_Union[ToolInfo, _Mapping]]] = ...) -> None: ...

class ServeToolsRequest(_message.Message):
    __slots__ = ["register", "result"]
    class Register(_message.Message):
        __slots__ = ["max_concurrency", "tools", "worker_name"]
        MAX_CONCURRENCY_FIELD_NUMBER: _ClassVar[int]
        TOOLS_FIELD_NUMBER: _ClassVar[int]
        WORKER_NAME_FIELD_NUMBER: _ClassVar[int]
        max_concurrency: int
        tools: _containers.RepeatedCompositeFieldContainer[ToolDefinition]
        worker_name: str
        def __init__(self, worker_name: _Optional[str] = ..., tools: _Optional[_Iterable[_Union[ToolDefinition, _Mapping]]] = ..., max_concurrency: _Optional[int] = ...) -> None: ...
    class Result(_message.Message):
        __slots__ = ["call_id", "error", "output"]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        ERROR_FIELD_NUMBER: _ClassVar[int]
        OUTPUT_FIELD_NUMBER: _ClassVar[int]
        call_id: str
        error: _record_pb2.ToolError
        output: _struct_pb2.Value
        def __init__(self, call_id: _Optional[str] = ..., output: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., error: _Optional[_Union[_record_pb2.ToolError, _Mapping]] = ...) -> None: ...
    REGISTER_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    register: ServeToolsRequest.Register
    result: ServeToolsRequest.Result
    def __init__(self, register: _Optional[_Union[ServeToolsRequest.Register, _Mapping]] = ..., result: _Optional[_Union[ServeToolsRequest.Result, _Mapping]] = ...) -> None: ...

class ServeToolsResponse(_message.Message):
    __slots__ = ["call", "cancel", "registered"]
    class Call(_message.Message):
        __slots__ = ["arguments", "call_id", "deadline_time", "name", "run_id", "traceparent"]
        ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        DEADLINE_TIME_FIELD_NUMBER: _ClassVar[int]
        NAME_FIELD_NUMBER: _ClassVar[int]
        RUN_ID_FIELD_NUMBER: _ClassVar[int]
        TRACEPARENT_FIELD_NUMBER: _ClassVar[int]
        arguments: _struct_pb2.Struct
        call_id: str
        deadline_time: _timestamp_pb2.Timestamp
        name: str
        run_id: str
        traceparent: str
        def __init__(self, call_id: _Optional[str] = ..., name: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., run_id: _Optional[str] = ..., deadline_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., traceparent: _Optional[str] = ...) -> None: ...
    class Cancel(_message.Message):
        __slots__ = ["call_id"]
        CALL_ID_FIELD_NUMBER: _ClassVar[int]
        call_id: str
        def __init__(self, call_id: _Optional[str] = ...) -> None: ...
    class Registered(_message.Message):
        __slots__ = ["worker_id"]
        WORKER_ID_FIELD_NUMBER: _ClassVar[int]
        worker_id: str
        def __init__(self, worker_id: _Optional[str] = ...) -> None: ...
    CALL_FIELD_NUMBER: _ClassVar[int]
    CANCEL_FIELD_NUMBER: _ClassVar[int]
    REGISTERED_FIELD_NUMBER: _ClassVar[int]
    call: ServeToolsResponse.Call
    cancel: ServeToolsResponse.Cancel
    registered: ServeToolsResponse.Registered
    def __init__(self, registered: _Optional[_Union[ServeToolsResponse.Registered, _Mapping]] = ..., call: _Optional[_Union[ServeToolsResponse.Call, _Mapping]] = ..., cancel: _Optional[_Union[ServeToolsResponse.Cancel, _Mapping]] = ...) -> None: ...

class ToolDefinition(_message.Message):
    __slots__ = ["description", "name", "parameters"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    description: str
    name: str
    parameters: _struct_pb2.Struct
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., parameters: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ToolInfo(_message.Message):
    __slots__ = ["description", "kind", "name", "parameters", "workers"]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    description: str
    kind: _spec_pb2.ToolKind
    name: str
    parameters: _struct_pb2.Struct
    workers: int
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[_Union[_spec_pb2.ToolKind, str]] = ..., description: _Optional[str] = ..., parameters: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., workers: _Optional[int] = ...) -> None: ...
