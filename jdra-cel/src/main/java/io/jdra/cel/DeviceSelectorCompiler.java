package io.jdra.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypes;
import dev.cel.runtime.CelRuntime;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles DRA device selector expressions (DeviceClass and request selectors) for one set of
 * {@link CompilerOptions}, as Kubernetes' dynamic-resource-allocation/cel package does.
 *
 * <p>Immutable and thread-safe. Results are cached process-wide in a bounded LRU cache keyed by
 * options and expression, so compiling the same selector again (once per scheduling cycle) costs a
 * map lookup. Compilation never throws for bad input: the result carries the error.
 */
public final class DeviceSelectorCompiler {
  /** Entries kept by the process-wide compile cache. */
  public static final int CACHE_SIZE = 4096;

  private static final Map<List<Boolean>, CelEnvironment> ENVIRONMENTS = new ConcurrentHashMap<>();
  private static final CompileCache CACHE = new CompileCache(CACHE_SIZE);

  private final CompilerOptions options;
  private final CelEnvironment environment;

  private DeviceSelectorCompiler(CompilerOptions options) {
    this.options = options;
    this.environment =
        ENVIRONMENTS.computeIfAbsent(
            List.of(options.listTypeAttributes(), options.consumableCapacity()),
            k -> CelEnvironment.create(k.get(0), k.get(1)));
  }

  public static DeviceSelectorCompiler create(CompilerOptions options) {
    return new DeviceSelectorCompiler(Objects.requireNonNull(options, "options"));
  }

  public CompilerOptions options() {
    return options;
  }

  /** Compiles (or fetches from the cache) one expression. */
  public CompilationResult compile(String expression) {
    Objects.requireNonNull(expression, "expression");
    return CACHE.get(options, expression, () -> compileUncached(expression));
  }

  /** Compiles without consulting the cache (for benchmarks and tests). */
  CompilationResult compileUncached(String expression) {
    if (expression.getBytes(StandardCharsets.UTF_8).length
        > CompilerOptions.MAX_EXPRESSION_LENGTH) {
      return CompilationResult.failed(
          expression,
          new CelCompileError(
              CelCompileError.Kind.TOO_LONG,
              "may not be more than " + CompilerOptions.MAX_EXPRESSION_LENGTH + " bytes",
              List.of()),
          Long.MAX_VALUE);
    }
    CelValidationResult parsed = environment.cel().parse(expression);
    if (parsed.hasError()) {
      return invalid(expression, parsed, true);
    }
    CelValidationResult checked;
    try {
      checked = environment.cel().check(parsed.getAst());
    } catch (CelValidationException e) {
      return invalid(expression, parsed, true);
    }
    if (checked.hasError()) {
      return invalid(expression, checked, false);
    }
    try {
      checked = environment.validator().validate(checked.getAst());
    } catch (CelValidationException e) {
      return invalid(expression, checked, false);
    }
    if (checked.hasError()) {
      return invalid(expression, checked, false);
    }
    CelAbstractSyntaxTree ast;
    try {
      ast = checked.getAst();
    } catch (CelValidationException e) {
      return invalid(expression, checked, false);
    }
    CelType result = ast.getResultType();
    if (result.kind() != CelKind.BOOL && result.kind() != CelKind.DYN) {
      return CompilationResult.failed(
          expression,
          new CelCompileError(
              CelCompileError.Kind.INVALID,
              "must evaluate to bool or the unknown type, not " + CelTypes.format(result),
              List.of()),
          Long.MAX_VALUE);
    }
    long maxCost = CostEstimator.estimate(ast);
    if (maxCost > options.costLimit() && options.rejectTooComplex()) {
      return CompilationResult.failed(
          expression,
          new CelCompileError(
              CelCompileError.Kind.TOO_COMPLEX, "too complex, exceeds cost limit", List.of()),
          maxCost);
    }
    try {
      CelRuntime.Program program = environment.cel().createProgram(ast);
      boolean trackCost = maxCost > options.costLimit();
      return CompilationResult.ok(
          new SelectorProgram(
              expression,
              program,
              maxCost,
              trackCost,
              options.costLimit(),
              options.listTypeAttributes()));
    } catch (Exception e) {
      return CompilationResult.failed(
          expression,
          new CelCompileError(
              CelCompileError.Kind.INTERNAL,
              "program instantiation failed: " + e.getMessage(),
              List.of()),
          Long.MAX_VALUE);
    }
  }

  /** cel-go words grammar errors "Syntax error: ..."; CEL-Java leaves the prefix out. */
  private static CelIssue syntaxError(CelIssue issue) {
    String m = issue.getMessage();
    boolean grammar =
        m.startsWith("mismatched input")
            || m.startsWith("extraneous input")
            || m.startsWith("missing ")
            || m.startsWith("no viable alternative")
            || m.startsWith("token recognition error");
    return grammar
        ? CelIssue.formatError(issue.getExprId(), issue.getSourceLocation(), "Syntax error: " + m)
        : issue;
  }

  private static CompilationResult invalid(
      String expression, CelValidationResult checked, boolean parsing) {
    List<CelIssue> raw =
        parsing
            ? checked.getErrors().stream().map(DeviceSelectorCompiler::syntaxError).toList()
            : checked.getErrors();
    List<CelCompileError.Issue> issues =
        raw.stream()
            .map((CelIssue i) ->
                new CelCompileError.Issue(
                    i.getSourceLocation().getLine(),
                    i.getSourceLocation().getColumn() + 1,
                    i.getMessage()))
            .toList();
    return CompilationResult.failed(
        expression,
        new CelCompileError(
            CelCompileError.Kind.INVALID,
            "compilation failed: " + CelIssue.toDisplayString(raw, checked.getSource()),
            issues),
        Long.MAX_VALUE);
  }
}
