package io.jdra.cel;

import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelVariableResolver;
import java.util.Optional;

/** A compiled selector: a CEL program plus its cost bookkeeping. Immutable, thread-safe. */
final class SelectorProgram implements CompiledSelector {
  private final String expression;
  private final CelRuntime.Program program;
  private final long maxCost;
  private final boolean trackCost;
  private final long costLimit;
  private final boolean listTypeAttributes;

  SelectorProgram(
      String expression,
      CelRuntime.Program program,
      long maxCost,
      boolean trackCost,
      long costLimit,
      boolean listTypeAttributes) {
    this.expression = expression;
    this.program = program;
    this.maxCost = maxCost;
    this.trackCost = trackCost;
    this.costLimit = costLimit;
    this.listTypeAttributes = listTypeAttributes;
  }

  @Override
  public String expression() {
    return expression;
  }

  @Override
  public long maxCost() {
    return maxCost;
  }

  /** Whether evaluations count their cost (only when the estimate could exceed the limit). */
  boolean tracksCost() {
    return trackCost;
  }

  @Override
  public boolean matches(DeviceInput device) throws CelEvaluationException {
    String attributeError = device.attributeError(listTypeAttributes);
    if (attributeError != null) {
      // Upstream fails before evaluating, whether or not the expression reads that attribute.
      throw new CelEvaluationException(attributeError);
    }
    DeviceValue value = device.celValue();
    CelVariableResolver vars =
        name -> "device".equals(name) ? Optional.of(value) : Optional.empty();
    Object result;
    try {
      result = trackCost ? program.trace(vars, new RuntimeCost(costLimit)) : program.eval(vars);
    } catch (dev.cel.runtime.CelEvaluationException e) {
      throw ErrorMessages.runtime(e);
    } catch (RuntimeCost.LimitExceeded e) {
      throw new CelEvaluationException(RuntimeCost.MESSAGE, e);
    } catch (RuntimeException e) {
      throw ErrorMessages.unexpected(e);
    }
    if (result instanceof Boolean b) {
      return b;
    }
    throw new CelEvaluationException(
        "CEL result of type " + ValueTypes.typeName(result) + " could not be converted to bool");
  }

  @Override
  public String toString() {
    return "CompiledSelector[" + expression + "]";
  }
}
