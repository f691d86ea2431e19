"""What the linter knows about libraries: plain data, no rule logic.

Every qualified name here is spelled the way Python resolves it from the
module's imports (``requests.post``, ``requests.Session.post`` for a method
called on a ``requests.Session()`` instance). Rules read these tables through
:class:`Knowledge`, which user configuration (``timeout-required``,
``classify``, ``retry-decorators``) extends; rules never copy them.

The tables live in this package's modules, one subject each; this module
re-exports every public name (``from ..linter.knowledge import X`` and
``kb.X`` read the same objects) and holds :class:`Knowledge`, the one object
rules read them through:

- ``timeouts``: clients (aliases, factories) and how their calls take a timeout (TFH2xx);
- ``processes``: processes and CLI programs, which need no timeout or no fix (TFH201);
- ``errors``: typed errors and where an exception's text goes (TFH401, TFH5xx);
- ``fallbacks``: tool-like work, benign fallbacks, compensation steps (TFH402, TFH403);
- ``retries``: retry libraries, statuses, exceptions, loop budgets (TFH1xx, TFH3xx);
- ``writes``: the call classes and which calls write (``linter/effects.py``);
- ``tools``, ``registrars``: the framework forms that make a tool, the verbs that register one (``smullyan tools``).

A name is defined in one module only (a test checks it); add a table to the
module of its subject, then to the imports and ``__all__`` below.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Hashable, Iterable, Mapping, TypeVar, cast

from .timeouts import (
    TimeoutParam, HTTP_METHODS, LLM_SDK_CLIENTS, LLM_SDK_METHODS, STREAM_CALLS, ALIASES, FACTORIES, FIELD_DECLARATIONS,
    ENTER_RETURNS_SELF, TIMEOUTS, NEEDS_TIMEOUT_SCOPE, NO_TIMEOUT_PARAMETER, WORKER_THREAD_CALLS, FORWARDING_WORKER_CALLS,
    TIMEOUT_WRAPPERS, TIMEOUT_SCOPES, TIMEOUT_DECORATORS, TIMEOUT_OBJECTS, TIMEOUT_OBJECT_NON_DEADLINES,
    TIMEOUT_OBJECTS_OMITTED_NONE, SESSION_DEFAULT_TIMEOUTS, CLIENT_REQUEST_PATHS, TIMEOUT_MODULE_ROOTS, BLOCKING_IN_ASYNC, TIMEOUT_KINDS, timeout_kind,
    ApiFamily, API_FAMILIES, API_STREAM_KEYWORDS, SDK_CALL_TIMEOUTS, family_timeout, SOCKET_DEFAULT_TIMEOUT_CALLS,
)
from .processes import (
    ProcessNote, INTERACTIVE_PROCESSES, INTERACTIVE_SUBCOMMANDS, VERSION_QUERIES, INFO_QUERY_PREFIXES, INTERACTIVE_ENV,
    INTERACTIVE_INSTALLS, INTERACTIVE_CONFIRMS, CLI_FRAMEWORKS, CLI_DECORATOR_WORDS, shell_commands,
    interactive_process, info_query, process_fix_refusal, process_length_unknown, QUICK_PROCESSES, LONG_RUNNING_PROCESSES, LONG_RUNNING_SUBCOMMANDS,
    REMOTE_CLIS, REMOTE_SUBCOMMANDS, REMOTE_CLI_LOCAL_SUBCOMMANDS, remote_cli,
    LOCAL_INSTANT_SUBCOMMANDS, LOCAL_INSTANT_FLAGS, local_instant,
    SUDO_NON_INTERACTIVE_FLAGS, SUDO_VALUE_FLAGS, sudo_wrapped,
)
from .local_programs import (
    local_program, network_command, network_or_long_words, silent_process, NETWORK_PROGRAMS, NEVER_ENDING_PROCESSES, PLAYBACK_PROGRAMS,
    FOREGROUND_JOBS, SELF_BOUNDING_FLAGS, foreground_job, self_bounded, LOCAL_ONLY_SUBCOMMANDS, local_only,
)
from .sessions import (
    SIGN_IN_SUBCOMMANDS, SIGN_IN_COMMANDS, SIGN_IN_FLAGS, NON_INTERACTIVE_SIGN_IN_WORDS, NON_INTERACTIVE_SIGN_IN_FLAGS,
    interactive_sign_in, sign_in_subcommand, SessionFlags, SESSION_FLAGS, SSH_SESSION_LETTERS, interactive_session,
)
from .errors import (
    RUNTIME_MODULES, TOOL_ERROR_VARIANTS, TOOL_ERROR_CONSTRUCTORS, TOOL_ERROR_CLASSES, TOOL_ERROR_UNION,
    RESULT_TYPES, OK_CLASSES, ERR_CLASSES, ERR_FIELD, TOOL_ERROR_PARSERS, ASSERT_NEVER, TAG_ATTRIBUTE,
    WIRE_TAG_KEY, EXCEPTION_TEXT_ATTRIBUTES, TRACEBACK_FORMATTERS, RECORDING_METHODS, RECORDING_FUNCTIONS,
    RECORDING_NAME_PARTS, EXCEPTION_ARGS_ATTRIBUTES, TEXT_BUILDING_CALLS, TEXT_PASSING_BUILTINS,
    TEXT_PASSING_METHODS, TEXT_PASSING_CALL_WORDS, EXCEPTION_KEYWORDS, TEXT_PRODUCER_NAME_PARTS, TEXT_PRODUCER_NAME_PREFIXES,
    PARSER_ERRORS, REPROMPT_KEYWORD_PART, REPROMPT_CALL_SUFFIX, FORMAT_ERRORS, FORMAT_ERROR_BUILTINS,
    ARGUMENT_VALIDATION_ERRORS, ERROR_DISCRIMINATOR_KEYS, ERROR_DISCRIMINATOR_ATTRIBUTES,
    GENERIC_ERROR_CODE_WORDS, GENERIC_ERROR_CODE_FILLER, RESULT_FAILURE_FACTORY_WORDS, RESULT_FAILURE_FACTORY_CLASS_WORDS,
    MESSAGE_CONSTRUCTORS, MESSAGE_UNREAD_KEYWORDS, ARTIFACT_RESPONSE_FORMAT, MESSAGE_DICT_FORMS, MESSAGE_DICT_FLAGS, MCP_SERVER_ANSWER_KEY, MCP_MODULE_WORD, MCP_SERVER_MODULE_WORDS, JSONRPC_CATCH_ALL_CODES, WEB_APP_CLASSES, WEB_ROUTE_METHODS, WEB_ROUTE_REGISTRATIONS, ROUTE_SCREEN, ROUTES_KEY, WEB_ROUTE_DECORATORS, CONVENTIONAL_EXCEPTION_NAMES, EXCEPTION_MESSAGE_KEYWORDS, SIGNATURE_FACTORIES, SIGNATURE_BINDING_METHODS,
    WEB_RESPONSE_CALLS, CLI_COMMAND_DECORATORS, CONTAINER_FILLING_METHODS, CODE_RUNNING_BUILTINS,
    CODE_RUNNING_CALLS, CODE_RUNNING_NAME_PARTS, REPORT_NAME_WORDS, REPORT_MODULE_WORDS, NON_MODEL_PLUGIN_BASES, REPORT_DIRECTORY_WORDS, CLI_DIRECTORY_NAMES, COMMAND_LINE_MODULE_NAMES, COMMAND_LINE_TOOL_HINTS,
    RESULT_FAILURE_FACTORY_RESULT_WORDS, TOOL_RESULT_EVENT_WORDS,
    REPORT_DIRECTORY_DEPTH, UI_MODULE_ROOTS, PRINT_FUNCTIONS, CONSOLE_CLASSES, CONSOLE_PRINT_METHODS,
    TOOL_EVIDENCE_WORDS, STATUS_READER_WORDS, MODEL_RESPONSE_KEYS, TOOL_EVIDENCE_NAME_PARTS, TOOL_IMPORTER_SKIPPED_PREFIXES,
    INPUT_CHECK_WORDS, INPUT_PARSERS, INPUT_MOVING_CALLS, TOOL_ARGUMENT_NAMES, INPUT_CHECK_REMOTE_WORDS, INPUT_MODEL_PARSERS,
)
from .fallbacks import (
    TOOL_MODULE_PREFIXES, TOOL_CALLS, TOOL_METHODS, TOOL_RECEIVER_WORDS, REACHABILITY_NAME_PARTS, PROBE_NAME_PARTS, TRANSPORT_BASE_ERRORS, WRITE_STATUS_VERBS, WRITE_FLAG_NEUTRAL_METHODS,
    LOCAL_IO_CALLS, LOCAL_IO_PREFIXES, LOCAL_IO_METHODS, LOCAL_SOCKET_FAMILIES, LOCAL_SOCKET_METHODS, LOCAL_DATAGRAM_SOCKET_TYPES, LOCAL_DATAGRAM_SOCKET_METHODS, FAILURE_LOG_LEVELS, FAILURE_CALL_NAME_PARTS, FAILURE_TEXT_WORDS, LOCAL_PATH_ARGUMENT_WORDS, CLIENT_CLASS_WORDS, URL_ARGUMENT_WORDS, REMOTE_RECEIVER_WORDS,
    VALUE_NAME_WORDS, URL_IN_MEMORY_VERBS,
    REMOTE_READ_RECEIVER_WORDS, REMOTE_CLIENT_CLASSES, EMBEDDED_STORES, EMBEDDED_STORE_CLASSES,
    BENIGN_FALLBACK_NAME_PARTS, IN_MEMORY_LIBRARIES, PURE_CALLS, PURE_METHODS, IN_HAND_RESPONSE_CLASSES, EXISTENCE_NAME_PREFIXES,
    EXISTENCE_NAME_SUFFIXES, PREDICATE_PREFIXES, ACTION_VERBS, CLEANUP_FUNCTION_WORDS,
    CLEANUP_FUNCTION_NAME_PARTS, COMPENSATION_WORDS, COMPENSATION_FUNCTION_WORDS,
    COMPENSATION_EXEMPT_FUNCTIONS, TRANSACTION_DISCARDING_METHODS, TOOL_RUN_METHODS, TOOL_RUN_RECEIVER_WORDS, LOCAL_CANCEL_METHODS, LOCAL_CANCEL_RECEIVER_WORDS, ALREADY_GONE_ERRORS,
    ALREADY_GONE_ERROR_PARTS, SUPPRESSORS,
)
from .retries import (
    RETRY_DECORATORS, LANGCHAIN_RETRY_FACTORY_NAME, RETRY_ITERATORS, RUNTIME_RETRY_CALLS,
    RUNTIME_RETRY_METHOD, RUNTIME_ATTEMPTS_METHOD, RUNTIME_KEYED, RUNTIME_PREFIX, RUNTIME_PIPE,
    RUNTIME_CONDITIONS, RUNTIME_DEFAULT_CONDITION, LANGCHAIN_WITH_RETRY_METHOD, LANGCHAIN_ROOTS,
    TOOL_RETRY_MIDDLEWARE, RETRY_TRANSPORTS, URLLIB3_RETRY, URLLIB3_DEFAULT_METHODS, TENACITY_CONDITIONS,
    TENACITY_STOPS, TENACITY_NO_WAIT, PERMANENT_STATUSES, SERVER_ERROR_STATUSES, RATE_LIMIT_STATUS,
    SAMPLE_STATUSES, PERMANENT_TAGS, PERMANENT_EXCEPTIONS, STATUS_ERROR_EXCEPTIONS, EVERY_EXCEPTION,
    SDK_STATUS_ERROR_EXCEPTIONS, BACKGROUND_PROCESS_STARTS, LOOPBACK_HOSTS, ADDRESS_WORDS, PROCESS_LIVENESS_WORDS,
    REEXPORTED_EXCEPTION_MODULES, BUG_EXCEPTIONS,
    RETRIES_429_IMPLICITLY, REPROMPT_CALL_WORDS, RATE_LIMIT_WORDS, CONTEXT_WINDOW_WORDS, MESSAGE_RECEIVE_METHODS,
    RATE_LIMIT_WAIT_VERBS, RATE_LIMIT_WAIT_NOUNS, WAIT_COMPUTING_ROOTS, WAIT_COMPUTING_BUILTINS,
    MESSAGE_CHANNEL_METHODS, MESSAGE_CHANNEL_WORDS, SLEEP_WORDS, GIVE_UP_CALL_PREFIXES, RETRY_COUNTER_WORDS,
    DETERMINISTIC_EXCEPTIONS, RUNTIME_BOUND_CLAUSES, DETERMINISTIC_EXCEPTION_SUFFIXES, DETERMINISTIC_EXCEPTION_PREFIXES,
    CANCELLATION_EXCEPTIONS, BENCHMARK_TIMER_CALLS, SERVER_RUN_CALLS, SERVER_RUN_RECEIVERS,
    LOCK_BUSY_EXCEPTIONS, LOCK_ATTEMPT_CALLS, LOCK_ATTEMPT_EXCEPTIONS, PERSON_ASK_VERBS, PERSON_ASK_NOUNS,
    MESSAGE_FETCH_VERBS, MESSAGE_FETCH_NOUNS, OPTIMISTIC_CONFLICT_EXCEPTIONS, RETRY_SIGNAL_WORDS, RETRY_SIGNAL_FAILURE_WORDS, IDEMPOTENCY_FLAG_WORDS, IDEMPOTENCY_FLAG_NEGATIONS, IO_BUILTINS, PERSON_PROMPT_CALLS, FILE_CONTENTION_CALLS, FILE_CONTENTION_METHODS, LOGGING_CALL_PREFIXES, REPORTING_CALL_WORDS, PROCESS_EXIT_CALLS, PROCESS_REPLACING_CALLS, PROTOCOL_STEP_EXCEPTIONS, LOCAL_RESULT_METHODS, LOCAL_RESULT_TIMEOUTS,
    TIMEOUT_ONLY_EXCEPTIONS, CALLABLE_RUNNING_MODULES, ITERATING_BUILTINS, FRESH_VALUE_CALLS, IN_MEMORY_MODULES, VALUE_ANNOTATIONS,
    DEADLINE_SCOPE_NAMES, CONNECT_PHASE_EXCEPTIONS, STALE_CONNECTION_EXCEPTIONS, STATUS_ERROR_BASES,
    TRANSIENT_ADVICE, TRANSIENT_ADVICE_DEFAULT,
)
from .writes import (
    READ_SAFE, IDEMPOTENT_WRITE, NON_IDEMPOTENT_WRITE, IRREVERSIBLE, WRITE_CLASSES, HTTP_METHOD_CLASSES,
    HTTP_CORE_CLIENTS, HTTP_REQUEST_METHODS, READ_POST_URL_PARTS, READ_POST_FUNCTION_PREFIXES, LLM_INFERENCE_MODULE_PARTS,
    LLM_INFERENCE_STEM_PARTS, LLM_INFERENCE_STEM_WORDS, LLM_INFERENCE_BASE_SUFFIXES, LLM_INFERENCE_BODY_KEYS, LLM_INFERENCE_MODEL_INPUT_KEYS, LLM_PROVIDER_PACKAGE_PARTS, LLM_TRANSPORT_STEM_WORDS, LLM_VENDOR_WORDS, llm_inference_module,
    llm_provider_package, READ_CLASS_WORDS, WRITE_CLASS_WORDS, identifier_words, read_class_name, SIGN_IN_WORDS, signs_in,
    TELEMETRY_EXPORT_WORDS, telemetry_exporter_name, TELEMETRY_MODULE_WORDS, telemetry_module,
    SDK_CALLS, SDK_PREFIX_CALLS, SDK_METHODS, SDK_METHODS_ANY_RECEIVER, TELEGRAM_BOT_API, CLASSIFICATION_DECORATORS, MCP_HINTS,
    MCP_TOOL_DECORATOR_METHOD, IDEMPOTENCY_KEYWORDS, IDEMPOTENCY_HEADERS, IDEMPOTENCY_HEADER_SUFFIXES, CLASSES, TOOL_NAME_VERBS,
    NATURALLY_IDEMPOTENT_VERBS, TOOL_ROW_NAME_VERBS,
)
from .tool_effects import (
    CLI_VERB_CLASSES, CLI_LOCAL_PROGRAMS, LOCAL_CLASS, OUTSIDE_STDLIB_PREFIXES, OUTSIDE_BUILTINS, LOCAL_VALUE_METHODS,
    LOCAL_PROGRAMS, GIT_LOCAL_SUBCOMMANDS, LOCAL_FOREIGN_METHODS,
)
from .tools import (
    TOOL_DECORATORS, TOOL_DECORATOR_TEXT, MCP_SERVER_TEXT, TOOL_FACTORY_DECORATORS, TOOL_BASE_CLASSES, TOOL_WRAPPERS, TOOL_MODULE_SPECS,
    TOOL_SPEC_KEYS, TOOL_DESCRIPTION_KEYS, TOOL_SPEC_CLASS_NOUNS, LOWLEVEL_MCP_SERVERS, MCP_CLIENT_SESSIONS,
    TOOL_LIST_CONSTRUCTORS, TOOL_LIST_ARGUMENTS, TOOL_LIST_METHODS, TOOL_NOT_EXTERNAL, TOOL_PROCESS_CALLS, TOOL_DECORATOR_WORDS,
    CONFIGURED_TOOL_METHODS, TOOL_DATA_FILES, HINT_KEYWORD_DECORATORS, TOOL_REQUEST_FIELDS,
)
from .registrars import TOOL_REGISTRATION_VERBS, TOOL_REGISTRAR_NAMES, NOT_TOOL_REGISTRARS, WEB_FRAMEWORK_ROOTS, not_a_registrar, registration_framework
from .toolsets import MEMBERS, TOOLSET_BASES, TOOLSET_TEXT
from .clients import (CLIENT_CHAIN_CALLS, CLIENT_CHAIN_METHODS, CLIENT_CLASSES, CLIENT_FUNCTIONS, CLIENT_MODULES, ClientClass,
                      CLIENT_SUBSCRIPT, HTTP_CLIENTS, REQUESTS_COMPATIBLE_CLIENTS, SDK_CLIENT_CLASS_SUFFIXES, SDK_CLIENT_CLASSES, SDK_CLIENT_CONSTRUCTORS, SDK_LOCAL_CLIENTS,
                      SDK_LOCAL_METHODS)


__all__ = [
    "MEMBERS", "TOOLSET_BASES", "TOOLSET_TEXT",
    "INPUT_CHECK_WORDS", "INPUT_CHECK_REMOTE_WORDS", "INPUT_MODEL_PARSERS", "INPUT_PARSERS", "INPUT_MOVING_CALLS", "TOOL_ARGUMENT_NAMES",
    "CLIENT_CHAIN_CALLS", "CLIENT_CHAIN_METHODS", "CLIENT_CLASSES", "CLIENT_FUNCTIONS", "CLIENT_MODULES", "ClientClass", "CLIENT_SUBSCRIPT",
    "REQUESTS_COMPATIBLE_CLIENTS", "SDK_CLIENT_CLASS_SUFFIXES", "SDK_CLIENT_CLASSES", "SDK_CLIENT_CONSTRUCTORS", "SDK_LOCAL_CLIENTS", "SDK_LOCAL_METHODS",
    "ACTION_VERBS", "ALIASES", "ALREADY_GONE_ERRORS", "ALREADY_GONE_ERROR_PARTS",
    "ARGUMENT_VALIDATION_ERRORS", "ASSERT_NEVER", "BENCHMARK_TIMER_CALLS", "BENIGN_FALLBACK_NAME_PARTS",
    "BLOCKING_IN_ASYNC", "CANCELLATION_EXCEPTIONS", "CLASSES", "CLASSIFICATION_DECORATORS",
    "CLEANUP_FUNCTION_NAME_PARTS", "CLEANUP_FUNCTION_WORDS", "CLI_COMMAND_DECORATORS", "CLI_DECORATOR_WORDS",
    "CLI_FRAMEWORKS", "CODE_RUNNING_BUILTINS", "CODE_RUNNING_CALLS", "CODE_RUNNING_NAME_PARTS",
    "COMPENSATION_EXEMPT_FUNCTIONS", "COMPENSATION_FUNCTION_WORDS", "COMPENSATION_WORDS", "TRANSACTION_DISCARDING_METHODS",
    "TOOL_RUN_METHODS", "TOOL_RUN_RECEIVER_WORDS",
    "CONFIGURED_TOOL_METHODS", "TOOL_DATA_FILES", "CLI_VERB_CLASSES", "CLI_LOCAL_PROGRAMS", "LOCAL_CLASS", "OUTSIDE_STDLIB_PREFIXES", "OUTSIDE_BUILTINS", "LOCAL_VALUE_METHODS", "LOCAL_PROGRAMS", "GIT_LOCAL_SUBCOMMANDS", "LOCAL_FOREIGN_METHODS", "HINT_KEYWORD_DECORATORS", "CONTAINER_FILLING_METHODS", "DETERMINISTIC_EXCEPTIONS", "CONTEXT_WINDOW_WORDS",
    "DETERMINISTIC_EXCEPTION_SUFFIXES", "DETERMINISTIC_EXCEPTION_PREFIXES", "ENTER_RETURNS_SELF", "ERROR_DISCRIMINATOR_ATTRIBUTES",
    "ERROR_DISCRIMINATOR_KEYS", "GENERIC_ERROR_CODE_WORDS", "GENERIC_ERROR_CODE_FILLER", "RESULT_FAILURE_FACTORY_WORDS", "RESULT_FAILURE_FACTORY_CLASS_WORDS",
    "ERR_CLASSES", "ERR_FIELD", "EVERY_EXCEPTION", "EXCEPTION_ARGS_ATTRIBUTES",
    "EXCEPTION_KEYWORDS", "EXCEPTION_TEXT_ATTRIBUTES", "EXISTENCE_NAME_PREFIXES", "EXISTENCE_NAME_SUFFIXES",
    "FACTORIES", "FIELD_DECLARATIONS", "FILE_CONTENTION_CALLS", "TIMEOUT_ONLY_EXCEPTIONS", "CALLABLE_RUNNING_MODULES", "ITERATING_BUILTINS", "FRESH_VALUE_CALLS", "IN_MEMORY_MODULES", "VALUE_ANNOTATIONS", "DEADLINE_SCOPE_NAMES", "CONNECT_PHASE_EXCEPTIONS", "STALE_CONNECTION_EXCEPTIONS", "TRANSIENT_ADVICE", "TRANSIENT_ADVICE_DEFAULT", "LOCAL_RESULT_METHODS", "LOCAL_RESULT_TIMEOUTS", "FILE_CONTENTION_METHODS", "FORMAT_ERRORS", "FORMAT_ERROR_BUILTINS", "GIVE_UP_CALL_PREFIXES",
    "HTTP_CLIENTS", "HTTP_CORE_CLIENTS", "HTTP_METHODS", "HTTP_METHOD_CLASSES", "HTTP_REQUEST_METHODS", "IDEMPOTENCY_HEADERS", "IDEMPOTENCY_HEADER_SUFFIXES",
    "IDEMPOTENCY_KEYWORDS", "IDEMPOTENT_WRITE", "INTERACTIVE_CONFIRMS", "INTERACTIVE_ENV",
    "INTERACTIVE_INSTALLS", "INTERACTIVE_PROCESSES", "INTERACTIVE_SUBCOMMANDS", "LOCAL_INSTANT_SUBCOMMANDS",
    "LOCAL_INSTANT_FLAGS", "local_instant", "SUDO_NON_INTERACTIVE_FLAGS", "SUDO_VALUE_FLAGS", "sudo_wrapped", "IN_MEMORY_LIBRARIES",
    "IO_BUILTINS", "PERSON_PROMPT_CALLS", "IRREVERSIBLE", "Knowledge", "LANGCHAIN_RETRY_FACTORY_NAME", "LANGCHAIN_ROOTS",
    "LANGCHAIN_WITH_RETRY_METHOD", "LLM_INFERENCE_BASE_SUFFIXES", "LLM_INFERENCE_BODY_KEYS", "LLM_INFERENCE_MODEL_INPUT_KEYS", "BACKGROUND_PROCESS_STARTS", "LOOPBACK_HOSTS", "ADDRESS_WORDS", "PROCESS_LIVENESS_WORDS",
    "LLM_INFERENCE_MODULE_PARTS", "LLM_INFERENCE_STEM_PARTS", "LLM_PROVIDER_PACKAGE_PARTS", "LLM_TRANSPORT_STEM_WORDS", "LLM_VENDOR_WORDS", "LLM_INFERENCE_STEM_WORDS", "LLM_SDK_CLIENTS", "LLM_SDK_METHODS",
    "LOCAL_CANCEL_METHODS", "LOCAL_CANCEL_RECEIVER_WORDS", "LOCK_BUSY_EXCEPTIONS", "LOCK_ATTEMPT_CALLS", "LOCK_ATTEMPT_EXCEPTIONS", "PERSON_ASK_VERBS", "PERSON_ASK_NOUNS",
    "MESSAGE_FETCH_VERBS", "MESSAGE_FETCH_NOUNS", "RETRY_SIGNAL_WORDS", "RETRY_SIGNAL_FAILURE_WORDS", "LOGGING_CALL_PREFIXES", "REPORTING_CALL_WORDS", "PROCESS_EXIT_CALLS", "PROCESS_REPLACING_CALLS", "PROTOCOL_STEP_EXCEPTIONS",
    "LONG_RUNNING_PROCESSES", "LONG_RUNNING_SUBCOMMANDS", "TIMEOUT_KINDS", "timeout_kind", "ApiFamily", "API_FAMILIES", "API_STREAM_KEYWORDS", "SDK_CALL_TIMEOUTS", "family_timeout", "MCP_HINTS", "MCP_TOOL_DECORATOR_METHOD",
    "MESSAGE_CHANNEL_METHODS", "MESSAGE_CHANNEL_WORDS", "MESSAGE_CONSTRUCTORS", "MESSAGE_UNREAD_KEYWORDS", "ARTIFACT_RESPONSE_FORMAT", "MESSAGE_DICT_FORMS", "MESSAGE_DICT_FLAGS", "MCP_SERVER_ANSWER_KEY", "MCP_MODULE_WORD", "MCP_SERVER_MODULE_WORDS", "JSONRPC_CATCH_ALL_CODES",
    "MESSAGE_RECEIVE_METHODS", "NEEDS_TIMEOUT_SCOPE", "NON_IDEMPOTENT_WRITE", "NO_TIMEOUT_PARAMETER",
    "OK_CLASSES", "IDEMPOTENCY_FLAG_WORDS", "IDEMPOTENCY_FLAG_NEGATIONS", "OPTIMISTIC_CONFLICT_EXCEPTIONS", "PARSER_ERRORS", "PERMANENT_EXCEPTIONS", "REEXPORTED_EXCEPTION_MODULES", "BUG_EXCEPTIONS", "PERMANENT_STATUSES", "PERMANENT_TAGS",
    "PREDICATE_PREFIXES", "PURE_CALLS", "PURE_METHODS", "IN_HAND_RESPONSE_CLASSES", "ProcessNote", "RATE_LIMIT_STATUS",
    "RATE_LIMIT_WORDS", "RATE_LIMIT_WAIT_VERBS", "RATE_LIMIT_WAIT_NOUNS", "WAIT_COMPUTING_ROOTS", "WAIT_COMPUTING_BUILTINS", "REACHABILITY_NAME_PARTS", "PROBE_NAME_PARTS", "TRANSPORT_BASE_ERRORS", "WRITE_STATUS_VERBS", "WRITE_FLAG_NEUTRAL_METHODS", "READ_POST_URL_PARTS", "READ_POST_FUNCTION_PREFIXES", "SIGN_IN_WORDS", "signs_in", "TOOL_NAME_VERBS", "TOOL_ROW_NAME_VERBS", "NATURALLY_IDEMPOTENT_VERBS", "READ_SAFE", "RECORDING_FUNCTIONS",
    "RECORDING_METHODS", "RECORDING_NAME_PARTS", "REPROMPT_CALL_SUFFIX", "REPROMPT_CALL_WORDS",
    "REPORT_DIRECTORY_DEPTH", "RESULT_FAILURE_FACTORY_RESULT_WORDS", "TOOL_RESULT_EVENT_WORDS", "REPORT_DIRECTORY_WORDS", "TOOL_EVIDENCE_WORDS", "STATUS_READER_WORDS", "MODEL_RESPONSE_KEYS", "TOOL_EVIDENCE_NAME_PARTS", "TOOL_IMPORTER_SKIPPED_PREFIXES", "CLI_DIRECTORY_NAMES", "COMMAND_LINE_MODULE_NAMES", "COMMAND_LINE_TOOL_HINTS", "PRINT_FUNCTIONS", "CONSOLE_CLASSES", "CONSOLE_PRINT_METHODS", "REPORT_NAME_WORDS", "REPORT_MODULE_WORDS", "NON_MODEL_PLUGIN_BASES", "REPROMPT_KEYWORD_PART", "RESULT_TYPES", "RETRIES_429_IMPLICITLY", "RETRY_COUNTER_WORDS",
    "RETRY_DECORATORS", "RETRY_ITERATORS", "RETRY_TRANSPORTS", "RUNTIME_ATTEMPTS_METHOD",
    "RUNTIME_BOUND_CLAUSES", "RUNTIME_CONDITIONS", "RUNTIME_DEFAULT_CONDITION", "RUNTIME_KEYED",
    "RUNTIME_MODULES", "RUNTIME_PIPE", "RUNTIME_PREFIX", "RUNTIME_RETRY_CALLS", "RUNTIME_RETRY_METHOD",
    "SAMPLE_STATUSES", "SDK_CALLS", "SDK_METHODS", "SDK_METHODS_ANY_RECEIVER", "TELEGRAM_BOT_API", "SDK_PREFIX_CALLS", "SERVER_ERROR_STATUSES",
    "SERVER_RUN_CALLS", "SESSION_DEFAULT_TIMEOUTS", "CLIENT_REQUEST_PATHS", "SOCKET_DEFAULT_TIMEOUT_CALLS", "SERVER_RUN_RECEIVERS", "SLEEP_WORDS", "STATUS_ERROR_EXCEPTIONS", "STATUS_ERROR_BASES", "SDK_STATUS_ERROR_EXCEPTIONS", "STREAM_CALLS",
    "SUPPRESSORS", "TAG_ATTRIBUTE", "TENACITY_CONDITIONS", "TENACITY_NO_WAIT", "TENACITY_STOPS",
    "TEXT_BUILDING_CALLS", "TEXT_PASSING_BUILTINS", "TEXT_PASSING_METHODS", "TEXT_PASSING_CALL_WORDS", "TEXT_PRODUCER_NAME_PARTS",
    "TEXT_PRODUCER_NAME_PREFIXES", "TIMEOUTS", "TIMEOUT_MODULE_ROOTS", "TIMEOUT_OBJECTS",
    "TIMEOUT_OBJECTS_OMITTED_NONE", "TIMEOUT_OBJECT_NON_DEADLINES", "TIMEOUT_SCOPES", "TIMEOUT_DECORATORS", "TIMEOUT_WRAPPERS",
    "TOOL_BASE_CLASSES", "TOOL_CALLS", "LOCAL_IO_CALLS", "LOCAL_IO_PREFIXES", "LOCAL_IO_METHODS", "LOCAL_SOCKET_FAMILIES", "LOCAL_SOCKET_METHODS", "LOCAL_DATAGRAM_SOCKET_TYPES", "LOCAL_DATAGRAM_SOCKET_METHODS", "FAILURE_LOG_LEVELS", "FAILURE_CALL_NAME_PARTS", "FAILURE_TEXT_WORDS", "LOCAL_PATH_ARGUMENT_WORDS", "CLIENT_CLASS_WORDS", "URL_ARGUMENT_WORDS", "VALUE_NAME_WORDS", "URL_IN_MEMORY_VERBS", "REMOTE_RECEIVER_WORDS", "REMOTE_READ_RECEIVER_WORDS", "REMOTE_CLIENT_CLASSES", "EMBEDDED_STORES", "EMBEDDED_STORE_CLASSES", "REMOTE_CLIS", "REMOTE_SUBCOMMANDS", "REMOTE_CLI_LOCAL_SUBCOMMANDS", "TOOL_DECORATORS", "TOOL_DECORATOR_TEXT", "MCP_SERVER_TEXT", "TOOL_SPEC_KEYS", "TOOL_DESCRIPTION_KEYS", "TOOL_FACTORY_DECORATORS", "TOOL_DECORATOR_WORDS", "TOOL_SPEC_CLASS_NOUNS", "LOWLEVEL_MCP_SERVERS", "MCP_CLIENT_SESSIONS", "TOOL_REGISTRATION_VERBS", "TOOL_REGISTRAR_NAMES", "NOT_TOOL_REGISTRARS", "WEB_FRAMEWORK_ROOTS", "not_a_registrar", "registration_framework",
    "TOOL_ERROR_CLASSES", "TOOL_ERROR_CONSTRUCTORS", "TOOL_ERROR_PARSERS", "TOOL_ERROR_UNION",
    "TOOL_ERROR_VARIANTS", "TOOL_LIST_CONSTRUCTORS", "TOOL_LIST_ARGUMENTS", "TOOL_LIST_METHODS", "TOOL_METHODS", "TOOL_MODULE_PREFIXES",
    "TOOL_MODULE_SPECS", "TOOL_NOT_EXTERNAL", "TOOL_PROCESS_CALLS", "TOOL_RECEIVER_WORDS",
    "TOOL_REQUEST_FIELDS", "TOOL_RETRY_MIDDLEWARE", "TOOL_WRAPPERS", "TRACEBACK_FORMATTERS", "TimeoutParam", "UI_MODULE_ROOTS",
    "URLLIB3_DEFAULT_METHODS", "URLLIB3_RETRY", "VERSION_QUERIES", "INFO_QUERY_PREFIXES", "WEB_APP_CLASSES", "WEB_RESPONSE_CALLS",
    "WEB_ROUTE_DECORATORS", "WEB_ROUTE_METHODS", "WEB_ROUTE_REGISTRATIONS", "ROUTE_SCREEN", "ROUTES_KEY", "CONVENTIONAL_EXCEPTION_NAMES", "EXCEPTION_MESSAGE_KEYWORDS", "SIGNATURE_FACTORIES", "SIGNATURE_BINDING_METHODS", "WIRE_TAG_KEY", "WORKER_THREAD_CALLS", "FORWARDING_WORKER_CALLS", "WRITE_CLASSES",
    "canonical", "info_query", "interactive_process", "llm_inference_module", "llm_provider_package",
    "READ_CLASS_WORDS", "WRITE_CLASS_WORDS", "identifier_words", "read_class_name", "markdown_calls", "markdown_words",
    "TELEMETRY_EXPORT_WORDS", "telemetry_exporter_name", "TELEMETRY_MODULE_WORDS", "telemetry_module",
    "process_fix_refusal", "process_length_unknown", "local_program", "network_command", "network_or_long_words", "silent_process", "NETWORK_PROGRAMS", "PLAYBACK_PROGRAMS",
    "FOREGROUND_JOBS", "SELF_BOUNDING_FLAGS", "foreground_job", "self_bounded", "LOCAL_ONLY_SUBCOMMANDS", "local_only",
    "SIGN_IN_SUBCOMMANDS", "SIGN_IN_COMMANDS", "SIGN_IN_FLAGS", "NON_INTERACTIVE_SIGN_IN_WORDS", "NON_INTERACTIVE_SIGN_IN_FLAGS",
    "interactive_sign_in", "sign_in_subcommand", "SessionFlags", "SESSION_FLAGS", "SSH_SESSION_LETTERS", "interactive_session",
    "NEVER_ENDING_PROCESSES", "QUICK_PROCESSES", "remote_cli", "shell_commands",
]

_T = TypeVar("_T")


@dataclass(frozen=True)
class Knowledge:
    """The tables of this package, extended by one configuration.

    Rules read every table through this object (``self.knowledge`` in a
    visitor, the ``knowledge`` argument of a screen), never through this
    module's globals: the three fields are what configuration extends, the
    class attributes below are the library's own tables under lower-case
    names, so a table that configuration later extends needs no rule edit.
    """

    timeouts: Mapping[str, TimeoutParam]
    classify: Mapping[str, str]
    retry_decorators: frozenset[str]
    #: the configuration's ``clients``: a project's function or attribute -> the client class its value is (the
    #: resolver reads calls through it as that class's; the screens look for them as for the class's own calls)
    clients: tuple[tuple[str, str], ...] = ()

    http_methods: ClassVar[tuple[str, ...]] = HTTP_METHODS
    aliases: ClassVar[Mapping[str, str]] = ALIASES
    factories: ClassVar[Mapping[str, str]] = FACTORIES
    enter_returns_self: ClassVar[frozenset[str]] = ENTER_RETURNS_SELF
    needs_timeout_scope: ClassVar[Mapping[str, str]] = NEEDS_TIMEOUT_SCOPE
    no_timeout_parameter: ClassVar[Mapping[str, str]] = NO_TIMEOUT_PARAMETER
    api_families: ClassVar[tuple[ApiFamily, ...]] = API_FAMILIES
    api_stream_keywords: ClassVar[Mapping[str, bool]] = API_STREAM_KEYWORDS
    sdk_call_timeouts: ClassVar[Mapping[str, TimeoutParam]] = SDK_CALL_TIMEOUTS
    worker_thread_calls: ClassVar[frozenset[str]] = WORKER_THREAD_CALLS
    forwarding_worker_calls: ClassVar[frozenset[str]] = FORWARDING_WORKER_CALLS
    timeout_wrappers: ClassVar[frozenset[str]] = TIMEOUT_WRAPPERS
    long_running_processes: ClassVar[frozenset[str]] = LONG_RUNNING_PROCESSES
    cli_frameworks: ClassVar[frozenset[str]] = CLI_FRAMEWORKS
    cli_decorator_words: ClassVar[frozenset[str]] = CLI_DECORATOR_WORDS
    timeout_scopes: ClassVar[frozenset[str]] = TIMEOUT_SCOPES
    timeout_decorators: ClassVar[Mapping[str, tuple[str, int]]] = TIMEOUT_DECORATORS
    timeout_objects: ClassVar[Mapping[str, tuple[str, ...]]] = TIMEOUT_OBJECTS
    timeout_object_non_deadlines: ClassVar[frozenset[str]] = TIMEOUT_OBJECT_NON_DEADLINES
    timeout_objects_omitted_none: ClassVar[frozenset[str]] = TIMEOUT_OBJECTS_OMITTED_NONE
    blocking_in_async: ClassVar[Mapping[str, str]] = BLOCKING_IN_ASYNC
    runtime_modules: ClassVar[tuple[str, ...]] = RUNTIME_MODULES
    tool_error_constructors: ClassVar[frozenset[str]] = TOOL_ERROR_CONSTRUCTORS
    exception_text_attributes: ClassVar[frozenset[str]] = EXCEPTION_TEXT_ATTRIBUTES
    traceback_formatters: ClassVar[frozenset[str]] = TRACEBACK_FORMATTERS
    recording_methods: ClassVar[frozenset[str]] = RECORDING_METHODS
    recording_functions: ClassVar[frozenset[str]] = RECORDING_FUNCTIONS
    recording_name_parts: ClassVar[tuple[str, ...]] = RECORDING_NAME_PARTS
    exception_args_attributes: ClassVar[frozenset[str]] = EXCEPTION_ARGS_ATTRIBUTES
    text_building_calls: ClassVar[frozenset[str]] = TEXT_BUILDING_CALLS
    text_passing_builtins: ClassVar[frozenset[str]] = TEXT_PASSING_BUILTINS
    text_passing_methods: ClassVar[frozenset[str]] = TEXT_PASSING_METHODS
    text_passing_call_words: ClassVar[frozenset[str]] = TEXT_PASSING_CALL_WORDS
    exception_keywords: ClassVar[frozenset[str]] = EXCEPTION_KEYWORDS
    text_producer_name_parts: ClassVar[tuple[str, ...]] = TEXT_PRODUCER_NAME_PARTS
    text_producer_name_prefixes: ClassVar[tuple[str, ...]] = TEXT_PRODUCER_NAME_PREFIXES
    parser_errors: ClassVar[frozenset[str]] = PARSER_ERRORS
    reprompt_keyword_part: ClassVar[str] = REPROMPT_KEYWORD_PART
    reprompt_call_suffix: ClassVar[str] = REPROMPT_CALL_SUFFIX
    format_errors: ClassVar[frozenset[str]] = FORMAT_ERRORS
    error_discriminator_keys: ClassVar[frozenset[str]] = ERROR_DISCRIMINATOR_KEYS
    error_discriminator_attributes: ClassVar[frozenset[str]] = ERROR_DISCRIMINATOR_ATTRIBUTES
    generic_error_code_words: ClassVar[frozenset[str]] = GENERIC_ERROR_CODE_WORDS
    generic_error_code_filler: ClassVar[frozenset[str]] = GENERIC_ERROR_CODE_FILLER
    result_failure_factory_words: ClassVar[frozenset[str]] = RESULT_FAILURE_FACTORY_WORDS
    result_failure_factory_class_words: ClassVar[frozenset[str]] = RESULT_FAILURE_FACTORY_CLASS_WORDS
    message_constructors: ClassVar[frozenset[str]] = MESSAGE_CONSTRUCTORS
    message_unread_keywords: ClassVar[frozenset[str]] = MESSAGE_UNREAD_KEYWORDS
    artifact_response_format: ClassVar[tuple[str, str]] = ARTIFACT_RESPONSE_FORMAT
    message_channel_words: ClassVar[tuple[str, ...]] = MESSAGE_CHANNEL_WORDS
    web_app_classes: ClassVar[frozenset[str]] = WEB_APP_CLASSES
    format_error_builtins: ClassVar[frozenset[str]] = FORMAT_ERROR_BUILTINS
    argument_validation_errors: ClassVar[frozenset[str]] = ARGUMENT_VALIDATION_ERRORS
    web_route_methods: ClassVar[frozenset[str]] = WEB_ROUTE_METHODS
    web_route_decorators: ClassVar[frozenset[str]] = WEB_ROUTE_DECORATORS
    web_response_calls: ClassVar[frozenset[str]] = WEB_RESPONSE_CALLS
    cli_command_decorators: ClassVar[frozenset[str]] = CLI_COMMAND_DECORATORS
    report_name_words: ClassVar[frozenset[str]] = REPORT_NAME_WORDS
    report_module_words: ClassVar[frozenset[str]] = REPORT_MODULE_WORDS
    non_model_plugin_bases: ClassVar[frozenset[str]] = NON_MODEL_PLUGIN_BASES
    result_failure_factory_result_words: ClassVar[frozenset[str]] = RESULT_FAILURE_FACTORY_RESULT_WORDS
    tool_result_event_words: ClassVar[frozenset[str]] = TOOL_RESULT_EVENT_WORDS
    tool_registration_verbs: ClassVar[Mapping[str, bool]] = TOOL_REGISTRATION_VERBS
    registration_framework = staticmethod(registration_framework)
    report_directory_words: ClassVar[frozenset[str]] = REPORT_DIRECTORY_WORDS
    cli_directory_names: ClassVar[frozenset[str]] = CLI_DIRECTORY_NAMES
    command_line_module_names: ClassVar[frozenset[str]] = COMMAND_LINE_MODULE_NAMES
    command_line_tool_hints: ClassVar[re.Pattern[str]] = re.compile(COMMAND_LINE_TOOL_HINTS)
    report_directory_depth: ClassVar[int] = REPORT_DIRECTORY_DEPTH
    tool_evidence_words: ClassVar[frozenset[str]] = TOOL_EVIDENCE_WORDS
    status_reader_words: ClassVar[frozenset[str]] = STATUS_READER_WORDS
    model_response_keys: ClassVar[frozenset[str]] = MODEL_RESPONSE_KEYS
    tool_evidence_name_parts: ClassVar[tuple[str, ...]] = TOOL_EVIDENCE_NAME_PARTS
    tool_importer_skipped_prefixes: ClassVar[tuple[str, ...]] = TOOL_IMPORTER_SKIPPED_PREFIXES
    ui_module_roots: ClassVar[frozenset[str]] = UI_MODULE_ROOTS
    print_functions: ClassVar[frozenset[str]] = PRINT_FUNCTIONS
    console_classes: ClassVar[frozenset[str]] = CONSOLE_CLASSES
    console_print_methods: ClassVar[frozenset[str]] = CONSOLE_PRINT_METHODS
    tool_decorators: ClassVar[Mapping[str, str]] = TOOL_DECORATORS
    tool_base_classes: ClassVar[Mapping[str, tuple[str, tuple[str, ...]]]] = TOOL_BASE_CLASSES
    message_dict_forms: ClassVar[tuple[tuple[str, str], ...]] = MESSAGE_DICT_FORMS
    message_dict_flags: ClassVar[frozenset[str]] = MESSAGE_DICT_FLAGS
    mcp_server_answer_key: ClassVar[str] = MCP_SERVER_ANSWER_KEY
    mcp_module_word: ClassVar[str] = MCP_MODULE_WORD
    mcp_server_module_words: ClassVar[frozenset[str]] = MCP_SERVER_MODULE_WORDS
    jsonrpc_catch_all_codes: ClassVar[tuple[tuple[int, int], ...]] = JSONRPC_CATCH_ALL_CODES
    container_filling_methods: ClassVar[frozenset[str]] = CONTAINER_FILLING_METHODS
    code_running_builtins: ClassVar[frozenset[str]] = CODE_RUNNING_BUILTINS
    code_running_calls: ClassVar[frozenset[str]] = CODE_RUNNING_CALLS
    code_running_name_parts: ClassVar[tuple[str, ...]] = CODE_RUNNING_NAME_PARTS
    input_check_words: ClassVar[frozenset[str]] = INPUT_CHECK_WORDS
    input_check_remote_words: ClassVar[frozenset[str]] = INPUT_CHECK_REMOTE_WORDS
    input_parsers: ClassVar[frozenset[str]] = INPUT_PARSERS
    input_model_parsers: ClassVar[frozenset[str]] = INPUT_MODEL_PARSERS
    input_moving_calls: ClassVar[frozenset[str]] = INPUT_MOVING_CALLS
    tool_argument_names: ClassVar[frozenset[str]] = TOOL_ARGUMENT_NAMES
    tool_module_prefixes: ClassVar[tuple[str, ...]] = TOOL_MODULE_PREFIXES
    tool_calls: ClassVar[frozenset[str]] = TOOL_CALLS
    tool_methods: ClassVar[frozenset[str]] = TOOL_METHODS
    tool_receiver_words: ClassVar[frozenset[str]] = TOOL_RECEIVER_WORDS
    local_io_calls: ClassVar[frozenset[str]] = LOCAL_IO_CALLS
    local_io_prefixes: ClassVar[tuple[str, ...]] = LOCAL_IO_PREFIXES
    local_io_methods: ClassVar[frozenset[str]] = LOCAL_IO_METHODS
    local_socket_families: ClassVar[frozenset[str]] = LOCAL_SOCKET_FAMILIES
    local_socket_methods: ClassVar[frozenset[str]] = LOCAL_SOCKET_METHODS
    failure_log_levels: ClassVar[frozenset[str]] = FAILURE_LOG_LEVELS
    failure_call_name_parts: ClassVar[tuple[str, ...]] = FAILURE_CALL_NAME_PARTS
    failure_text_words: ClassVar[tuple[str, ...]] = FAILURE_TEXT_WORDS
    local_datagram_socket_types: ClassVar[frozenset[str]] = LOCAL_DATAGRAM_SOCKET_TYPES
    local_datagram_socket_methods: ClassVar[frozenset[str]] = LOCAL_DATAGRAM_SOCKET_METHODS
    local_path_argument_words: ClassVar[frozenset[str]] = LOCAL_PATH_ARGUMENT_WORDS
    client_class_words: ClassVar[frozenset[str]] = CLIENT_CLASS_WORDS
    remote_client_classes: ClassVar[frozenset[str]] = REMOTE_CLIENT_CLASSES
    embedded_stores: ClassVar[Mapping[str, tuple[str, tuple[str, ...], frozenset[str]]]] = EMBEDDED_STORES
    embedded_store_classes: ClassVar[frozenset[str]] = EMBEDDED_STORE_CLASSES
    tool_process_calls: ClassVar[frozenset[str]] = TOOL_PROCESS_CALLS
    url_argument_words: ClassVar[frozenset[str]] = URL_ARGUMENT_WORDS
    value_name_words: ClassVar[frozenset[str]] = VALUE_NAME_WORDS
    url_in_memory_verbs: ClassVar[frozenset[str]] = URL_IN_MEMORY_VERBS
    remote_receiver_words: ClassVar[frozenset[str]] = REMOTE_RECEIVER_WORDS
    remote_read_receiver_words: ClassVar[frozenset[str]] = REMOTE_READ_RECEIVER_WORDS
    reachability_name_parts: ClassVar[tuple[str, ...]] = REACHABILITY_NAME_PARTS
    probe_name_parts: ClassVar[tuple[str, ...]] = PROBE_NAME_PARTS
    transport_base_errors: ClassVar[frozenset[str]] = TRANSPORT_BASE_ERRORS
    write_status_verbs: ClassVar[frozenset[str]] = WRITE_STATUS_VERBS
    write_flag_neutral_methods: ClassVar[frozenset[str]] = WRITE_FLAG_NEUTRAL_METHODS
    benign_fallback_name_parts: ClassVar[tuple[str, ...]] = BENIGN_FALLBACK_NAME_PARTS
    in_memory_libraries: ClassVar[frozenset[str]] = IN_MEMORY_LIBRARIES
    pure_calls: ClassVar[frozenset[str]] = PURE_CALLS
    pure_methods: ClassVar[frozenset[str]] = PURE_METHODS
    in_hand_response_classes: ClassVar[frozenset[str]] = IN_HAND_RESPONSE_CLASSES
    existence_name_prefixes: ClassVar[tuple[str, ...]] = EXISTENCE_NAME_PREFIXES
    existence_name_suffixes: ClassVar[tuple[str, ...]] = EXISTENCE_NAME_SUFFIXES
    predicate_prefixes: ClassVar[tuple[str, ...]] = PREDICATE_PREFIXES
    action_verbs: ClassVar[frozenset[str]] = ACTION_VERBS
    cleanup_function_words: ClassVar[frozenset[str]] = CLEANUP_FUNCTION_WORDS
    cleanup_function_name_parts: ClassVar[tuple[str, ...]] = CLEANUP_FUNCTION_NAME_PARTS
    # TFH1xx retry safety (the retry model and effects read the module's tables directly)
    write_classes: ClassVar[Mapping[str, str]] = WRITE_CLASSES
    permanent_statuses: ClassVar[frozenset[int]] = PERMANENT_STATUSES
    permanent_tags: ClassVar[frozenset[str]] = PERMANENT_TAGS
    connect_phase_exceptions: ClassVar[frozenset[str]] = CONNECT_PHASE_EXCEPTIONS
    permanent_exceptions: ClassVar[frozenset[str]] = PERMANENT_EXCEPTIONS
    every_exception: ClassVar[frozenset[str]] = EVERY_EXCEPTION
    bug_exceptions: ClassVar[frozenset[str]] = BUG_EXCEPTIONS
    server_error_statuses: ClassVar[frozenset[int]] = SERVER_ERROR_STATUSES
    rate_limit_status: ClassVar[int] = RATE_LIMIT_STATUS
    rate_limit_words: ClassVar[tuple[str, ...]] = RATE_LIMIT_WORDS
    retries_429_implicitly: ClassVar[frozenset[str]] = RETRIES_429_IMPLICITLY
    reprompt_call_words: ClassVar[frozenset[str]] = REPROMPT_CALL_WORDS
    compensation_words: ClassVar[frozenset[str]] = COMPENSATION_WORDS
    compensation_function_words: ClassVar[frozenset[str]] = COMPENSATION_FUNCTION_WORDS
    compensation_exempt_functions: ClassVar[frozenset[str]] = COMPENSATION_EXEMPT_FUNCTIONS
    transaction_discarding_methods: ClassVar[frozenset[str]] = TRANSACTION_DISCARDING_METHODS
    tool_run_methods: ClassVar[frozenset[str]] = TOOL_RUN_METHODS
    tool_run_receiver_words: ClassVar[frozenset[str]] = TOOL_RUN_RECEIVER_WORDS
    local_cancel_methods: ClassVar[frozenset[str]] = LOCAL_CANCEL_METHODS
    local_cancel_receiver_words: ClassVar[frozenset[str]] = LOCAL_CANCEL_RECEIVER_WORDS
    already_gone_errors: ClassVar[frozenset[str]] = ALREADY_GONE_ERRORS
    already_gone_error_parts: ClassVar[tuple[str, ...]] = ALREADY_GONE_ERROR_PARTS
    # issue 23
    status_error_exceptions: ClassVar[frozenset[str]] = STATUS_ERROR_EXCEPTIONS
    sdk_status_error_exceptions: ClassVar[frozenset[str]] = SDK_STATUS_ERROR_EXCEPTIONS
    status_error_bases: ClassVar[Mapping[str, str]] = STATUS_ERROR_BASES
    io_builtins: ClassVar[frozenset[str]] = IO_BUILTINS
    in_memory_modules: ClassVar[frozenset[str]] = IN_MEMORY_MODULES
    fresh_value_calls: ClassVar[frozenset[str]] = FRESH_VALUE_CALLS
    local_foreign_methods: ClassVar[frozenset[str]] = LOCAL_FOREIGN_METHODS
    file_contention_calls: ClassVar[frozenset[str]] = FILE_CONTENTION_CALLS
    background_process_starts: ClassVar[frozenset[str]] = BACKGROUND_PROCESS_STARTS
    loopback_hosts: ClassVar[tuple[str, ...]] = LOOPBACK_HOSTS
    address_words: ClassVar[frozenset[str]] = ADDRESS_WORDS
    file_contention_methods: ClassVar[frozenset[str]] = FILE_CONTENTION_METHODS
    transient_advice: ClassVar[tuple[tuple[str, str], ...]] = TRANSIENT_ADVICE
    transient_advice_default: ClassVar[str] = TRANSIENT_ADVICE_DEFAULT
    llm_inference_base_suffixes: ClassVar[tuple[str, ...]] = LLM_INFERENCE_BASE_SUFFIXES
    read_post_function_prefixes: ClassVar[tuple[str, ...]] = READ_POST_FUNCTION_PREFIXES
    llm_inference_body_keys: ClassVar[frozenset[str]] = LLM_INFERENCE_BODY_KEYS
    llm_inference_model_input_keys: ClassVar[frozenset[str]] = LLM_INFERENCE_MODEL_INPUT_KEYS
    interactive_processes: ClassVar[Mapping[str, ProcessNote]] = INTERACTIVE_PROCESSES
    interactive_confirms: ClassVar[frozenset[str]] = INTERACTIVE_CONFIRMS
    interactive_process = staticmethod(interactive_process)
    local_program = staticmethod(local_program)
    network_or_long_words = staticmethod(network_or_long_words)
    network_command = staticmethod(network_command)
    silent_process = staticmethod(silent_process)
    foreground_job = staticmethod(foreground_job)
    self_bounded = staticmethod(self_bounded)
    interactive_sign_in = staticmethod(interactive_sign_in)
    sign_in_subcommand = staticmethod(sign_in_subcommand)
    interactive_session = staticmethod(interactive_session)
    remote_cli = staticmethod(remote_cli)
    remote_clis: ClassVar[frozenset[str]] = REMOTE_CLIS
    remote_cli_local_subcommands: ClassVar[frozenset[str]] = REMOTE_CLI_LOCAL_SUBCOMMANDS
    info_query = staticmethod(info_query)
    llm_sdk_clients: ClassVar[frozenset[str]] = LLM_SDK_CLIENTS
    stream_calls: ClassVar[frozenset[str]] = STREAM_CALLS
    session_default_timeouts: ClassVar[frozenset[str]] = SESSION_DEFAULT_TIMEOUTS
    client_request_paths: ClassVar[Mapping[str, tuple[str, tuple[tuple[str, bool], ...]]]] = CLIENT_REQUEST_PATHS
    socket_default_timeout_calls: ClassVar[frozenset[str]] = SOCKET_DEFAULT_TIMEOUT_CALLS
    process_fix_refusal = staticmethod(process_fix_refusal)
    process_length_unknown = staticmethod(process_length_unknown)
    shell_commands = staticmethod(shell_commands)
    llm_inference_module = staticmethod(llm_inference_module)
    llm_provider_package = staticmethod(llm_provider_package)
    read_class_name = staticmethod(read_class_name)
    telemetry_exporter_name = staticmethod(telemetry_exporter_name)
    telemetry_module = staticmethod(telemetry_module)
    identifier_words = staticmethod(identifier_words)
    suppressors: ClassVar[frozenset[str]] = SUPPRESSORS
    tool_error_variants: ClassVar[tuple[str, ...]] = TOOL_ERROR_VARIANTS
    tool_error_classes: ClassVar[Mapping[str, str]] = TOOL_ERROR_CLASSES
    tool_error_union: ClassVar[frozenset[str]] = TOOL_ERROR_UNION
    result_types: ClassVar[frozenset[str]] = RESULT_TYPES
    ok_classes: ClassVar[frozenset[str]] = OK_CLASSES
    err_classes: ClassVar[frozenset[str]] = ERR_CLASSES
    err_field: ClassVar[str] = ERR_FIELD
    tool_error_parsers: ClassVar[frozenset[str]] = TOOL_ERROR_PARSERS
    assert_never: ClassVar[frozenset[str]] = ASSERT_NEVER
    tag_attribute: ClassVar[str] = TAG_ATTRIBUTE
    wire_tag_key: ClassVar[str] = WIRE_TAG_KEY

    @staticmethod
    def canonical(qualname: str) -> str:
        """Map a submodule spelling to the canonical one (see :func:`canonical`)."""
        return canonical(qualname)

    @classmethod
    def build(
        cls,
        timeout_required: tuple[str, ...] = (),
        classify: Mapping[str, str] | None = None,
        retry_decorators: tuple[str, ...] = (),
        clients: tuple[tuple[str, str], ...] = (),
    ) -> "Knowledge":
        timeouts = dict(TIMEOUTS)
        for entry in timeout_required:
            name, _, keyword = entry.partition(":")
            timeouts[name] = TimeoutParam(keyword=keyword or "timeout", default="none configured")
        return cls(timeouts, dict(classify or {}), frozenset(retry_decorators), tuple(clients))

    def timeout_for(self, qualname: str) -> TimeoutParam | None:
        """How a call of ``qualname`` takes its timeout: the ``timeouts`` table (configuration included), else a
        method of a generated SDK API class (:data:`API_FAMILIES`: ``kubernetes.client.CoreV1Api.<any method>``)."""
        spec = self.timeouts.get(qualname)
        return spec if spec is not None else family_timeout(qualname)

    def memo(self, key: Hashable, build: Callable[[], _T]) -> _T:
        """``build()``, computed once per ``key`` for this (frozen) Knowledge.

        For what a rule derives from the tables (``{q.rsplit(".", 1)[1] for q in
        knowledge.traceback_formatters}``): computed once per configuration,
        not once per file, and still following what configuration adds.
        """
        cache: dict[Hashable, Any] = self.__dict__.setdefault("_memo_cache", {})
        if key not in cache:
            cache[key] = build()
        return cast(_T, cache[key])

    def _memo(self, table: str, kind: str, build: Callable[[], _T]) -> _T:
        return self.memo((table, kind), build)

    def _timeout_names(self, kind: str) -> list[str]:
        if kind == "missing":
            names = [q for q, spec in self.timeouts.items() if spec.required] + sorted(NEEDS_TIMEOUT_SCOPE) + sorted(NO_TIMEOUT_PARAMETER)
        else:
            names = [q for q, spec in self.timeouts.items() if spec.none_is_infinite] + list(TIMEOUT_OBJECTS)
        # a configured client holder (``myproj.http.Http.session`` -> ``requests.Session``): its calls spelt through
        # the holder (``myproj.http.Http.session.post``), for the screens only (the resolver reads them as the class's)
        return names + [f"{holder}{q[len(cls):]}" for holder, cls in self.clients for q in names
                        if q.startswith(cls + ".")]

    def screen_names(self, kind: str) -> Mapping[str, frozenset[str]]:
        """Module root -> callee names whose presence makes a file a candidate.

        ``kind`` is ``"missing"`` (TFH201: calls that need a timeout) or
        ``"none"`` (TFH202: calls where ``None`` disables it). For a method of
        a class, the object has to be built in the module for the call to
        resolve at all, so the class (or its factory) is what to look for:
        ``asyncio.subprocess.Process.wait`` screens on
        ``create_subprocess_exec``, not on every ``.wait()``.
        """
        return self._memo("screen_names", kind, lambda: self._build_screen_names(kind))

    def _build_screen_names(self, kind: str) -> Mapping[str, frozenset[str]]:
        names = self._timeout_names(kind)
        producers: dict[str, set[str]] = {}
        for factory, cls in FACTORIES.items():
            producers.setdefault(cls, set()).add(factory.rsplit(".", 1)[1])
        out: dict[str, set[str]] = {}
        for q in names:
            parts = q.split(".")
            target = out.setdefault(parts[0], set())
            cls_idx = [i for i in range(1, len(parts) - 1) if parts[i][:1].isupper()]
            if not cls_idx:
                target.add(parts[-1])
            else:
                i = cls_idx[-1]
                target.add(parts[i])
                target |= producers.get(".".join(parts[: i + 1]), set())
        return {root: frozenset(v) for root, v in out.items()}

    def spot_names(self, kind: str) -> Mapping[str, frozenset[str]]:
        """:meth:`screen_names` plus the method names themselves (``post``, ``wait``).

        The screen looks for the class or its factory; the finding sits on the
        method call, possibly in another method than the one that built the
        object (``self.s = requests.Session()`` in ``__init__``), so the
        definitions to parse are those that call either.
        """
        return self._memo("spot_names", kind, lambda: self._build_spot_names(kind))

    def _build_spot_names(self, kind: str) -> Mapping[str, frozenset[str]]:
        out = {root: set(v) for root, v in self.screen_names(kind).items()}
        for q in self._timeout_names(kind):
            out.setdefault(q.split(".")[0], set()).add(q.rsplit(".", 1)[-1])
        return {root: frozenset(v) for root, v in out.items()}

    def spot_imports(self, kind: str) -> frozenset[str]:
        """Qualified names an import must bind for a bare call of it to be a spot.

        Every name of :meth:`spot_names`'s kind, its factories, and each of
        their prefixes: ``from requests import Session`` is one,
        ``from urllib.parse import quote`` is not (``urllib`` is a root only
        for ``urllib.request.urlopen``).
        """
        return self._memo("spot_imports", kind, lambda: self._build_spot_imports(kind))

    def _build_spot_imports(self, kind: str) -> frozenset[str]:
        out: set[str] = set()
        for q in (*self._timeout_names(kind), *FACTORIES):
            parts = q.split(".")
            out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        return frozenset(out)

    def module_roots(self) -> frozenset[str]:
        """Top-level module names whose import makes a file a timeout candidate."""
        return TIMEOUT_MODULE_ROOTS | frozenset(q.split(".")[0] for q in self.timeouts)

    def call_names(self) -> frozenset[str]:
        """Last components of every call the timeout rules know."""
        names = {q.rsplit(".", 1)[-1] for q in (*self.timeouts, *NEEDS_TIMEOUT_SCOPE, *NO_TIMEOUT_PARAMETER)}
        names |= {q.rsplit(".", 1)[-1] for q in TIMEOUT_OBJECTS}
        return frozenset(names)


def canonical(qualname: str) -> str:
    """Map a submodule spelling to the canonical one (``requests.sessions.Session`` ...)."""
    if qualname in ALIASES:
        return ALIASES[qualname]
    head, _, tail = qualname.rpartition(".")
    while head:
        if head in ALIASES:
            return f"{ALIASES[head]}.{qualname[len(head) + 1:]}"
        head, _, _ = head.rpartition(".")
    return qualname


def markdown_calls(names: Iterable[str], note: Callable[[str], str | None] | None = None) -> str:
    """A Markdown list of qualified names grouped by owner, for rule docs generated from the tables.

    ``["requests.get", "requests.post", "requests.Session.get"]`` becomes
    ``- `requests`: `get`, `post``` and ``- `requests.Session`: `get```, in
    the order the owners first appear.
    """
    groups: dict[str, list[str]] = {}
    for q in names:
        owner, _, last = q.rpartition(".")
        members = groups.setdefault(owner, [])
        extra = note(q) if note is not None else None
        entry = f"`{last}`" + (f" ({extra})" if extra else "")
        if entry not in members:
            members.append(entry)
    lines = []
    for owner, members in groups.items():
        listed = ", ".join(members)
        lines.append(f"- `{owner}`: {listed}" if owner else f"- {listed}")
    return "\n".join(lines)


def markdown_words(words: Iterable[str], last: str = "and") -> str:
    """```a`, `b` and `c``` for docs (``last="or"``: ``... or `c```): the given order, or sorted for a set."""
    items = sorted(words) if isinstance(words, (set, frozenset)) else list(words)
    quoted = [f"`{w}`" for w in items]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + f" {last} " + quoted[-1]
