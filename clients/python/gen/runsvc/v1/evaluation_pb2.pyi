from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor
TRAJECTORY_CHANGE_EXTRA: TrajectoryChange
TRAJECTORY_CHANGE_FENCED: TrajectoryChange
TRAJECTORY_CHANGE_MISSING: TrajectoryChange
TRAJECTORY_CHANGE_REORDERED: TrajectoryChange
TRAJECTORY_CHANGE_SAME: TrajectoryChange
TRAJECTORY_CHANGE_UNSPECIFIED: TrajectoryChange

class CheckEvaluationRequest(_message.Message):
    __slots__ = ["evaluation_id", "min_score", "spec", "version"]
    EVALUATION_ID_FIELD_NUMBER: _ClassVar[int]
    MIN_SCORE_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    evaluation_id: str
    min_score: float
    spec: str
    version: str
    def __init__(self, evaluation_id: _Optional[str] = ..., spec: _Optional[str] = ..., version: _Optional[str] = ..., min_score: _Optional[float] = ...) -> None: ...

class CheckEvaluationResponse(_message.Message):
    __slots__ = ["score"]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    score: float
    def __init__(self, score: _Optional[float] = ...) -> None: ...

class DeleteEvaluationRequest(_message.Message):
    __slots__ = ["evaluation_id"]
    EVALUATION_ID_FIELD_NUMBER: _ClassVar[int]
    evaluation_id: str
    def __init__(self, evaluation_id: _Optional[str] = ...) -> None: ...

class DeleteEvaluationResponse(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class EvaluateVersionRequest(_message.Message):
    __slots__ = ["evaluators", "runs", "spec", "version"]
    EVALUATORS_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    evaluators: _containers.RepeatedCompositeFieldContainer[Evaluator]
    runs: RunSelection
    spec: str
    version: str
    def __init__(self, spec: _Optional[str] = ..., version: _Optional[str] = ..., runs: _Optional[_Union[RunSelection, _Mapping]] = ..., evaluators: _Optional[_Iterable[_Union[Evaluator, _Mapping]]] = ...) -> None: ...

class EvaluateVersionResponse(_message.Message):
    __slots__ = ["evaluation"]
    EVALUATION_FIELD_NUMBER: _ClassVar[int]
    evaluation: Evaluation
    def __init__(self, evaluation: _Optional[_Union[Evaluation, _Mapping]] = ...) -> None: ...

class Evaluation(_message.Message):
    __slots__ = ["create_time", "done", "evaluation_id", "evaluators", "runs", "spec", "summary", "version"]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    EVALUATION_ID_FIELD_NUMBER: _ClassVar[int]
    EVALUATORS_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    create_time: _timestamp_pb2.Timestamp
    done: bool
    evaluation_id: str
    evaluators: _containers.RepeatedCompositeFieldContainer[Evaluator]
    runs: _containers.RepeatedCompositeFieldContainer[RunEvaluation]
    spec: str
    summary: EvaluationSummary
    version: str
    def __init__(self, evaluation_id: _Optional[str] = ..., spec: _Optional[str] = ..., version: _Optional[str] = ..., evaluators: _Optional[_Iterable[_Union[Evaluator, _Mapping]]] = ..., create_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., done: bool = ..., summary: _Optional[_Union[EvaluationSummary, _Mapping]] = ..., runs: _Optional[_Iterable[_Union[RunEvaluation, _Mapping]]] = ...) -> None: ...

class EvaluationOutcome(_message.Message):
    __slots__ = ["answer", "reason", "state"]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    answer: str
    reason: str
    state: str
    def __init__(self, state: _Optional[str] = ..., reason: _Optional[str] = ..., answer: _Optional[str] = ...) -> None: ...

class EvaluationSummary(_message.Message):
    __slots__ = ["diverged", "equal", "fenced_calls", "needs_person", "outcome_changed", "recorded", "replayed", "runs", "score", "settled"]
    DIVERGED_FIELD_NUMBER: _ClassVar[int]
    EQUAL_FIELD_NUMBER: _ClassVar[int]
    FENCED_CALLS_FIELD_NUMBER: _ClassVar[int]
    NEEDS_PERSON_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_CHANGED_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    RUNS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SETTLED_FIELD_NUMBER: _ClassVar[int]
    diverged: int
    equal: int
    fenced_calls: int
    needs_person: int
    outcome_changed: int
    recorded: EvaluationUsage
    replayed: EvaluationUsage
    runs: int
    score: float
    settled: int
    def __init__(self, runs: _Optional[int] = ..., settled: _Optional[int] = ..., equal: _Optional[int] = ..., diverged: _Optional[int] = ..., fenced_calls: _Optional[int] = ..., needs_person: _Optional[int] = ..., outcome_changed: _Optional[int] = ..., score: _Optional[float] = ..., recorded: _Optional[_Union[EvaluationUsage, _Mapping]] = ..., replayed: _Optional[_Union[EvaluationUsage, _Mapping]] = ...) -> None: ...

class EvaluationUsage(_message.Message):
    __slots__ = ["cost", "input_tokens", "latency", "output_tokens"]
    COST_FIELD_NUMBER: _ClassVar[int]
    INPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    LATENCY_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TOKENS_FIELD_NUMBER: _ClassVar[int]
    cost: float
    input_tokens: int
    latency: _duration_pb2.Duration
    output_tokens: int
    def __init__(self, input_tokens: _Optional[int] = ..., output_tokens: _Optional[int] = ..., cost: _Optional[float] = ..., latency: _Optional[_Union[_duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class Evaluator(_message.Message):
    __slots__ = ["exact", "json_path", "json_schema", "llm_judge", "name", "regex"]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    JSON_PATH_FIELD_NUMBER: _ClassVar[int]
    JSON_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    LLM_JUDGE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    REGEX_FIELD_NUMBER: _ClassVar[int]
    exact: ExactMatch
    json_path: str
    json_schema: _struct_pb2.Struct
    llm_judge: LlmJudge
    name: str
    regex: str
    def __init__(self, name: _Optional[str] = ..., exact: _Optional[_Union[ExactMatch, _Mapping]] = ..., json_schema: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., regex: _Optional[str] = ..., json_path: _Optional[str] = ..., llm_judge: _Optional[_Union[LlmJudge, _Mapping]] = ...) -> None: ...

class EvaluatorScore(_message.Message):
    __slots__ = ["detail", "evaluator", "judge_run_id", "score"]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    EVALUATOR_FIELD_NUMBER: _ClassVar[int]
    JUDGE_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    detail: str
    evaluator: str
    judge_run_id: str
    score: float
    def __init__(self, evaluator: _Optional[str] = ..., score: _Optional[float] = ..., detail: _Optional[str] = ..., judge_run_id: _Optional[str] = ...) -> None: ...

class ExactMatch(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetEvaluationRequest(_message.Message):
    __slots__ = ["evaluation_id"]
    EVALUATION_ID_FIELD_NUMBER: _ClassVar[int]
    evaluation_id: str
    def __init__(self, evaluation_id: _Optional[str] = ...) -> None: ...

class GetEvaluationResponse(_message.Message):
    __slots__ = ["evaluation"]
    EVALUATION_FIELD_NUMBER: _ClassVar[int]
    evaluation: Evaluation
    def __init__(self, evaluation: _Optional[_Union[Evaluation, _Mapping]] = ...) -> None: ...

class ListEvaluationsRequest(_message.Message):
    __slots__ = ["page_size", "page_token"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListEvaluationsResponse(_message.Message):
    __slots__ = ["evaluations", "next_page_token"]
    EVALUATIONS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    evaluations: _containers.RepeatedCompositeFieldContainer[Evaluation]
    next_page_token: str
    def __init__(self, evaluations: _Optional[_Iterable[_Union[Evaluation, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class LlmJudge(_message.Message):
    __slots__ = ["spec", "version"]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    spec: str
    version: str
    def __init__(self, spec: _Optional[str] = ..., version: _Optional[str] = ...) -> None: ...

class RunEvaluation(_message.Message):
    __slots__ = ["divergences", "equal", "fenced_calls", "first_divergence", "needs_person", "recorded", "recorded_usage", "replay_run_id", "replayed", "replayed_usage", "score", "scores", "settled", "source_run_id", "trajectory"]
    DIVERGENCES_FIELD_NUMBER: _ClassVar[int]
    EQUAL_FIELD_NUMBER: _ClassVar[int]
    FENCED_CALLS_FIELD_NUMBER: _ClassVar[int]
    FIRST_DIVERGENCE_FIELD_NUMBER: _ClassVar[int]
    NEEDS_PERSON_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    RECORDED_USAGE_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_USAGE_FIELD_NUMBER: _ClassVar[int]
    REPLAY_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    SETTLED_FIELD_NUMBER: _ClassVar[int]
    SOURCE_RUN_ID_FIELD_NUMBER: _ClassVar[int]
    TRAJECTORY_FIELD_NUMBER: _ClassVar[int]
    divergences: int
    equal: bool
    fenced_calls: int
    first_divergence: int
    needs_person: bool
    recorded: EvaluationOutcome
    recorded_usage: EvaluationUsage
    replay_run_id: str
    replayed: EvaluationOutcome
    replayed_usage: EvaluationUsage
    score: float
    scores: _containers.RepeatedCompositeFieldContainer[EvaluatorScore]
    settled: bool
    source_run_id: str
    trajectory: _containers.RepeatedCompositeFieldContainer[TrajectoryStep]
    def __init__(self, source_run_id: _Optional[str] = ..., replay_run_id: _Optional[str] = ..., settled: bool = ..., recorded: _Optional[_Union[EvaluationOutcome, _Mapping]] = ..., replayed: _Optional[_Union[EvaluationOutcome, _Mapping]] = ..., equal: bool = ..., scores: _Optional[_Iterable[_Union[EvaluatorScore, _Mapping]]] = ..., score: _Optional[float] = ..., trajectory: _Optional[_Iterable[_Union[TrajectoryStep, _Mapping]]] = ..., divergences: _Optional[int] = ..., fenced_calls: _Optional[int] = ..., first_divergence: _Optional[int] = ..., needs_person: bool = ..., recorded_usage: _Optional[_Union[EvaluationUsage, _Mapping]] = ..., replayed_usage: _Optional[_Union[EvaluationUsage, _Mapping]] = ...) -> None: ...

class RunSelection(_message.Message):
    __slots__ = ["end_time", "limit", "run_ids", "spec", "start_time", "thread_id"]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    RUN_IDS_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    THREAD_ID_FIELD_NUMBER: _ClassVar[int]
    end_time: _timestamp_pb2.Timestamp
    limit: int
    run_ids: _containers.RepeatedScalarFieldContainer[str]
    spec: str
    start_time: _timestamp_pb2.Timestamp
    thread_id: str
    def __init__(self, run_ids: _Optional[_Iterable[str]] = ..., spec: _Optional[str] = ..., thread_id: _Optional[str] = ..., start_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., end_time: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., limit: _Optional[int] = ...) -> None: ...

class TrajectoryStep(_message.Message):
    __slots__ = ["arguments", "change", "recorded_step", "step", "tool"]
    ARGUMENTS_FIELD_NUMBER: _ClassVar[int]
    CHANGE_FIELD_NUMBER: _ClassVar[int]
    RECORDED_STEP_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    TOOL_FIELD_NUMBER: _ClassVar[int]
    arguments: str
    change: TrajectoryChange
    recorded_step: int
    step: int
    tool: str
    def __init__(self, step: _Optional[int] = ..., recorded_step: _Optional[int] = ..., change: _Optional[_Union[TrajectoryChange, str]] = ..., tool: _Optional[str] = ..., arguments: _Optional[str] = ...) -> None: ...

class TrajectoryChange(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
