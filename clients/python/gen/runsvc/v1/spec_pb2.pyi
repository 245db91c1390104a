from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

BUDGET_EXHAUSTED_ASK: BudgetExhausted
BUDGET_EXHAUSTED_FAIL: BudgetExhausted
BUDGET_EXHAUSTED_UNSPECIFIED: BudgetExhausted
CONCURRENCY_MODE_QUEUE: ConcurrencyMode
CONCURRENCY_MODE_REJECT: ConcurrencyMode
CONCURRENCY_MODE_REPLACE: ConcurrencyMode
CONCURRENCY_MODE_UNSPECIFIED: ConcurrencyMode
DELIVERY_AT_LEAST_ONCE: Delivery
DELIVERY_AT_MOST_ONCE: Delivery
DELIVERY_UNSPECIFIED: Delivery
DESCRIPTOR: _descriptor.FileDescriptor
IN_DOUBT_ASK: InDoubt
IN_DOUBT_TELL_MODEL: InDoubt
IN_DOUBT_UNSPECIFIED: InDoubt
THREAD_STRATEGY_ENQUEUE: ThreadStrategy
THREAD_STRATEGY_INTERRUPT: ThreadStrategy
THREAD_STRATEGY_REJECT: ThreadStrategy
THREAD_STRATEGY_STEER: ThreadStrategy
THREAD_STRATEGY_UNSPECIFIED: ThreadStrategy
TOOL_KIND_A2A: ToolKind
TOOL_KIND_BUILTIN: ToolKind
TOOL_KIND_CLIENT: ToolKind
TOOL_KIND_HTTP: ToolKind
TOOL_KIND_MCP: ToolKind
TOOL_KIND_UNSPECIFIED: ToolKind
TOOL_KIND_WORKER: ToolKind

class A2aTool(_message.Message):
    __slots__ = ["binding", "card_url", "credential", "poll_interval", "url"]
    BINDING_FIELD_NUMBER: _ClassVar[int]
    CARD_URL_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    POLL_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    binding: str
    card_url: str
    credential: str
    poll_interval: _duration_pb2.Duration
    url: str
    def __init__(self, card_url: _Optional[str] = ..., url: _Optional[str] = ..., binding: _Optional[str] = ..., credential: _Optional[str] = ..., poll_interval: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class BusConfig(_message.Message):
    __slots__ = ["channels", "enabled"]
    CHANNELS_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    channels: _containers.RepeatedScalarFieldContainer[str]
    enabled: bool
    def __init__(self, enabled: bool = ..., channels: _Optional[_Iterable[str]] = ...) -> None: ...

class Compaction(_message.Message):
    __slots__ = ["model"]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    model: ModelRef
    def __init__(self, model: _Optional[_Union[ModelRef, _Mapping]] = ...) -> None: ...

class Concurrency(_message.Message):
    __slots__ = ["key", "limit", "mode"]
    KEY_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    key: str
    limit: int
    mode: ConcurrencyMode
    def __init__(self, key: _Optional[str] = ..., limit: _Optional[int] = ..., mode: _Optional[_Union[ConcurrencyMode, str]] = ...) -> None: ...

class Credential(_message.Message):
    __slots__ = ["name"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class Exposure(_message.Message):
    __slots__ = ["a2a", "alias", "description", "mcp"]
    A2A_FIELD_NUMBER: _ClassVar[int]
    ALIAS_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    MCP_FIELD_NUMBER: _ClassVar[int]
    a2a: bool
    alias: str
    description: str
    mcp: bool
    def __init__(self, a2a: bool = ..., mcp: bool = ..., description: _Optional[str] = ..., alias: _Optional[str] = ...) -> None: ...

class GetSpecRequest(_message.Message):
    __slots__ = ["name", "version"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ...) -> None: ...

class GetSpecResponse(_message.Message):
    __slots__ = ["spec"]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    spec: Spec
    def __init__(self, spec: _Optional[_Union[Spec, _Mapping]] = ...) -> None: ...

class HttpTool(_message.Message):
    __slots__ = ["credential", "url"]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    credential: str
    url: str
    def __init__(self, url: _Optional[str] = ..., credential: _Optional[str] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ["cost_budget", "deadline", "max_delegation_depth", "max_delegations_per_turn", "max_tool_rounds", "max_turns", "on_exhausted", "token_budget", "transient_retry_budget"]
    COST_BUDGET_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    MAX_DELEGATIONS_PER_TURN_FIELD_NUMBER: _ClassVar[int]
    MAX_DELEGATION_DEPTH_FIELD_NUMBER: _ClassVar[int]
    MAX_TOOL_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    ON_EXHAUSTED_FIELD_NUMBER: _ClassVar[int]
    TOKEN_BUDGET_FIELD_NUMBER: _ClassVar[int]
    TRANSIENT_RETRY_BUDGET_FIELD_NUMBER: _ClassVar[int]
    cost_budget: float
    deadline: _duration_pb2.Duration
    max_delegation_depth: int
    max_delegations_per_turn: int
    max_tool_rounds: int
    max_turns: int
    on_exhausted: BudgetExhausted
    token_budget: int
    transient_retry_budget: int
    def __init__(self, max_tool_rounds: _Optional[int] = ..., max_turns: _Optional[int] = ..., deadline: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., token_budget: _Optional[int] = ..., cost_budget: _Optional[float] = ..., transient_retry_budget: _Optional[int] = ..., max_delegation_depth: _Optional[int] = ..., max_delegations_per_turn: _Optional[int] = ..., on_exhausted: _Optional[_Union[BudgetExhausted, str]] = ...) -> None: ...

class ListSpecsRequest(_message.Message):
    __slots__ = ["name", "page_size", "page_token"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    page_size: int
    page_token: str
    def __init__(self, name: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListSpecsResponse(_message.Message):
    __slots__ = ["next_page_token", "specs"]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SPECS_FIELD_NUMBER: _ClassVar[int]
    next_page_token: str
    specs: _containers.RepeatedCompositeFieldContainer[Spec]
    def __init__(self, specs: _Optional[_Iterable[_Union[Spec, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class McpEnv(_message.Message):
    __slots__ = ["credential", "name", "value"]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    credential: str
    name: str
    value: str
    def __init__(self, name: _Optional[str] = ..., value: _Optional[str] = ..., credential: _Optional[str] = ...) -> None: ...

class McpServer(_message.Message):
    __slots__ = ["args", "command", "credential", "env", "name", "timeout", "url"]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    ENV_FIELD_NUMBER: _ClassVar[int]
    IMPORT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    args: _containers.RepeatedScalarFieldContainer[str]
    command: str
    credential: str
    env: _containers.RepeatedCompositeFieldContainer[McpEnv]
    name: str
    timeout: _duration_pb2.Duration
    url: str
    def __init__(self, name: _Optional[str] = ..., url: _Optional[str] = ..., credential: _Optional[str] = ..., command: _Optional[str] = ..., args: _Optional[_Iterable[str]] = ..., env: _Optional[_Iterable[_Union[McpEnv, _Mapping]]] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., **kwargs) -> None: ...

class McpTool(_message.Message):
    __slots__ = ["args", "command", "credential", "env", "remote_name", "server", "url"]
    ARGS_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    ENV_FIELD_NUMBER: _ClassVar[int]
    REMOTE_NAME_FIELD_NUMBER: _ClassVar[int]
    SERVER_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    args: _containers.RepeatedScalarFieldContainer[str]
    command: str
    credential: str
    env: _containers.RepeatedCompositeFieldContainer[McpEnv]
    remote_name: str
    server: str
    url: str
    def __init__(self, url: _Optional[str] = ..., remote_name: _Optional[str] = ..., credential: _Optional[str] = ..., command: _Optional[str] = ..., args: _Optional[_Iterable[str]] = ..., env: _Optional[_Iterable[_Union[McpEnv, _Mapping]]] = ..., server: _Optional[str] = ...) -> None: ...

class ModelRef(_message.Message):
    __slots__ = ["api_key_credential", "base_url", "call_timeout", "context_window", "fallback_on_rejected", "fallback_retry_after_over", "fallbacks", "max_output_tokens", "model", "parallel_tool_calls", "pricing", "provider", "script", "stop", "temperature", "tool_choice", "top_p"]
    API_KEY_CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    BASE_URL_FIELD_NUMBER: _ClassVar[int]
    CALL_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_WINDOW_FIELD_NUMBER: _ClassVar[int]
    FALLBACKS_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_ON_REJECTED_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_RETRY_AFTER_OVER_FIELD_NUMBER: _ClassVar[int]
    MAX_OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    PARALLEL_TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    PRICING_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCRIPT_FIELD_NUMBER: _ClassVar[int]
    STOP_FIELD_NUMBER: _ClassVar[int]
    TEMPERATURE_FIELD_NUMBER: _ClassVar[int]
    TOOL_CHOICE_FIELD_NUMBER: _ClassVar[int]
    TOP_P_FIELD_NUMBER: _ClassVar[int]
    api_key_credential: str
    base_url: str
    call_timeout: _duration_pb2.Duration
    context_window: int
    fallback_on_rejected: bool
    fallback_retry_after_over: _duration_pb2.Duration
    fallbacks: _containers.RepeatedCompositeFieldContainer[ModelRef]
    max_output_tokens: int
    model: str
    parallel_tool_calls: bool
    pricing: Pricing
    provider: str
    script: Script
    stop: _containers.RepeatedScalarFieldContainer[str]
    temperature: float
    tool_choice: str
    top_p: float
    def __init__(self, provider: _Optional[str] = ..., model: _Optional[str] = ..., script: _Optional[_Union[Script, _Mapping]] = ..., base_url: _Optional[str] = ..., api_key_credential: _Optional[str] = ..., pricing: _Optional[_Union[Pricing, _Mapping]] = ..., call_timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., temperature: _Optional[float] = ..., top_p: _Optional[float] = ..., max_output_tokens: _Optional[int] = ..., stop: _Optional[_Iterable[str]] = ..., tool_choice: _Optional[str] = ..., parallel_tool_calls: bool = ..., context_window: _Optional[int] = ..., fallbacks: _Optional[_Iterable[_Union[ModelRef, _Mapping]]] = ..., fallback_retry_after_over: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., fallback_on_rejected: bool = ...) -> None: ...

class OutputSpec(_message.Message):
    __slots__ = ["schema"]
    SCHEMA_FIELD_NUMBER: _ClassVar[int]
    schema: _struct_pb2.Struct
    def __init__(self, schema: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class Pricing(_message.Message):
    __slots__ = ["input_per_million", "output_per_million"]
    INPUT_PER_MILLION_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_PER_MILLION_FIELD_NUMBER: _ClassVar[int]
    input_per_million: float
    output_per_million: float
    def __init__(self, input_per_million: _Optional[float] = ..., output_per_million: _Optional[float] = ...) -> None: ...

class PublishSpecRequest(_message.Message):
    __slots__ = ["spec"]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    spec: Spec
    def __init__(self, spec: _Optional[_Union[Spec, _Mapping]] = ...) -> None: ...

class PublishSpecResponse(_message.Message):
    __slots__ = ["created", "spec"]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    created: bool
    spec: Spec
    def __init__(self, spec: _Optional[_Union[Spec, _Mapping]] = ..., created: bool = ...) -> None: ...

class Retention(_message.Message):
    __slots__ = ["delete_memory", "settled_runs"]
    DELETE_MEMORY_FIELD_NUMBER: _ClassVar[int]
    SETTLED_RUNS_FIELD_NUMBER: _ClassVar[int]
    delete_memory: bool
    settled_runs: _duration_pb2.Duration
    def __init__(self, settled_runs: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., delete_memory: bool = ...) -> None: ...

class Script(_message.Message):
    __slots__ = ["turns"]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    turns: _containers.RepeatedCompositeFieldContainer[ScriptTurn]
    def __init__(self, turns: _Optional[_Iterable[_Union[ScriptTurn, _Mapping]]] = ...) -> None: ...

class ScriptFailure(_message.Message):
    __slots__ = ["http_status", "message", "retry_after", "times"]
    HTTP_STATUS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    RETRY_AFTER_FIELD_NUMBER: _ClassVar[int]
    TIMES_FIELD_NUMBER: _ClassVar[int]
    http_status: int
    message: str
    retry_after: _duration_pb2.Duration
    times: int
    def __init__(self, http_status: _Optional[int] = ..., retry_after: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., times: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class ScriptToolCall(_message.Message):
    __slots__ = ["arguments", "name"]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    arguments: _struct_pb2.Struct
    name: str
    def __init__(self, name: _Optional[str] = ..., arguments: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ScriptTurn(_message.Message):
    __slots__ = ["delay", "fail", "text", "tool_calls", "usage"]
    DELAY_FIELD_NUMBER: _ClassVar[int]
    FAIL_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TOOL_CALLS_FIELD_NUMBER: _ClassVar[int]
    USAGE_FIELD_NUMBER: _ClassVar[int]
    delay: _duration_pb2.Duration
    fail: ScriptFailure
    text: str
    tool_calls: _containers.RepeatedCompositeFieldContainer[ScriptToolCall]
    usage: ScriptUsage
    def __init__(self, text: _Optional[str] = ..., tool_calls: _Optional[_Iterable[_Union[ScriptToolCall, _Mapping]]] = ..., usage: _Optional[_Union[ScriptUsage, _Mapping]] = ..., fail: _Optional[_Union[ScriptFailure, _Mapping]] = ..., delay: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class ScriptUsage(_message.Message):
    __slots__ = ["input_tokens", "output_tokens"]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    input_tokens: int
    output_tokens: int
    def __init__(self, input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ...) -> None: ...

class Spec(_message.Message):
    __slots__ = ["bus", "compaction", "concurrency", "create_time", "credentials", "delegates", "exposure", "instructions", "limits", "mcp_servers", "model", "name", "output", "retention", "suspension_expiry", "thread_strategy", "timers", "tools", "version"]
    BUS_FIELD_NUMBER: _ClassVar[int]
    COMPACTION_FIELD_NUMBER: _ClassVar[int]
    CONCURRENCY_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    CREDENTIALS_FIELD_NUMBER: _ClassVar[int]
    DELEGATES_FIELD_NUMBER: _ClassVar[int]
    EXPOSURE_FIELD_NUMBER: _ClassVar[int]
    INSTRUCTIONS_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    MCP_SERVERS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FIELD_NUMBER: _ClassVar[int]
    RETENTION_FIELD_NUMBER: _ClassVar[int]
    SUSPENSION_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    THREAD_STRATEGY_FIELD_NUMBER: _ClassVar[int]
    TIMERS_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    bus: BusConfig
    compaction: Compaction
    concurrency: Concurrency
    create_time: _timestamp_pb2.Timestamp
    credentials: _containers.RepeatedCompositeFieldContainer[Credential]
    delegates: _containers.RepeatedScalarFieldContainer[str]
    exposure: Exposure
    instructions: str
    limits: Limits
    mcp_servers: _containers.RepeatedCompositeFieldContainer[McpServer]
    model: ModelRef
    name: str
    output: OutputSpec
    retention: Retention
    suspension_expiry: SuspensionExpiry
    thread_strategy: ThreadStrategy
    timers: Timers
    tools: _containers.RepeatedCompositeFieldContainer[Tool]
    version: str
    def __init__(self, name: _Optional[str] = ..., instructions: _Optional[str] = ..., model: _Optional[_Union[ModelRef, _Mapping]] = ..., tools: _Optional[_Iterable[_Union[Tool, _Mapping]]] = ..., delegates: _Optional[_Iterable[str]] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., suspension_expiry: _Optional[_Union[SuspensionExpiry, _Mapping]] = ..., credentials: _Optional[_Iterable[_Union[Credential, _Mapping]]] = ..., bus: _Optional[_Union[BusConfig, _Mapping]] = ..., version: _Optional[str] = ..., create_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., thread_strategy: _Optional[_Union[ThreadStrategy, str]] = ..., retention: _Optional[_Union[Retention, _Mapping]] = ..., mcp_servers: _Optional[_Iterable[_Union[McpServer, _Mapping]]] = ..., output: _Optional[_Union[OutputSpec, _Mapping]] = ..., compaction: _Optional[_Union[Compaction, _Mapping]] = ..., timers: _Optional[_Union[Timers, _Mapping]] = ..., exposure: _Optional[_Union[Exposure, _Mapping]] = ..., concurrency: _Optional[_Union[Concurrency, _Mapping]] = ...) -> None: ...

class SuspensionExpiry(_message.Message):
    __slots__ = ["approval", "children", "question", "tool_results"]
    APPROVAL_FIELD_NUMBER: _ClassVar[int]
    CHILDREN_FIELD_NUMBER: _ClassVar[int]
    QUESTION_FIELD_NUMBER: _ClassVar[int]
    TOOL_RESULTS_FIELD_NUMBER: _ClassVar[int]
    approval: _duration_pb2.Duration
    children: _duration_pb2.Duration
    question: _duration_pb2.Duration
    tool_results: _duration_pb2.Duration
    def __init__(self, tool_results: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., approval: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., question: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., children: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class Timers(_message.Message):
    __slots__ = ["max_sleep"]
    MAX_SLEEP_FIELD_NUMBER: _ClassVar[int]
    max_sleep: _duration_pb2.Duration
    def __init__(self, max_sleep: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class Tool(_message.Message):
    __slots__ = ["a2a", "delivery", "description", "http", "in_doubt", "kind", "mcp", "name", "parameters", "pure", "raise_on_error", "timeout"]
    A2A_FIELD_NUMBER: _ClassVar[int]
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    HTTP_FIELD_NUMBER: _ClassVar[int]
    IN_DOUBT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MCP_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PARAMETERS_FIELD_NUMBER: _ClassVar[int]
    PURE_FIELD_NUMBER: _ClassVar[int]
    RAISE_ON_ERROR_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    a2a: A2aTool
    delivery: Delivery
    description: str
    http: HttpTool
    in_doubt: InDoubt
    kind: ToolKind
    mcp: McpTool
    name: str
    parameters: _struct_pb2.Struct
    pure: bool
    raise_on_error: bool
    timeout: _duration_pb2.Duration
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[_Union[ToolKind, str]] = ..., description: _Optional[str] = ..., parameters: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., raise_on_error: bool = ..., http: _Optional[_Union[HttpTool, _Mapping]] = ..., mcp: _Optional[_Union[McpTool, _Mapping]] = ..., timeout: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ..., delivery: _Optional[_Union[Delivery, str]] = ..., in_doubt: _Optional[_Union[InDoubt, str]] = ..., a2a: _Optional[_Union[A2aTool, _Mapping]] = ..., pure: bool = ...) -> None: ...

class ConcurrencyMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ThreadStrategy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ToolKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Delivery(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class InDoubt(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class BudgetExhausted(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
