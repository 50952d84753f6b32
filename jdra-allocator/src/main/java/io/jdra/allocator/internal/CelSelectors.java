package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.cel.CelEvaluationException;
import io.jdra.cel.CompilationResult;
import io.jdra.cel.CompilerOptions;
import io.jdra.cel.DeviceInput;
import io.jdra.cel.DeviceSelectorCompiler;

/**
 * The production selector engine: jdra-cel with the environment for stored expressions (as
 * upstream's allocator cache: every field, runtime cost limit, no rejection by estimate), with
 * list-type attributes and consumable capacity as the features say. Thread-safe.
 */
public final class CelSelectors implements SelectorEngine {
  private final DeviceSelectorCompiler compiler;

  private CelSelectors(DeviceSelectorCompiler compiler) {
    this.compiler = compiler;
  }

  public static SelectorEngine forFeatures(AllocatorFeatures features) {
    return new CelSelectors(
        DeviceSelectorCompiler.create(
            CompilerOptions.storedExpressions()
                .withListTypeAttributes(features.listTypeAttributes())
                .withConsumableCapacity(features.consumableCapacity())));
  }

  @Override
  public Compiled compile(String expression) {
    CompilationResult r = compiler.compile(expression);
    if (!r.isOk()) {
      String error = r.error().map(Object::toString).orElse("unknown compile error");
      return new Compiled() {
        @Override
        public String compileError() {
          return error;
        }

        @Override
        public boolean matches(Object view) {
          throw new IllegalStateException("expression did not compile");
        }
      };
    }
    io.jdra.cel.CompiledSelector selector = r.selector().orElseThrow();
    return new Compiled() {
      @Override
      public String compileError() {
        return null;
      }

      @Override
      public boolean matches(Object view) throws EvaluationException {
        try {
          return selector.matches((DeviceInput) view);
        } catch (CelEvaluationException e) {
          throw new EvaluationException(e.getMessage());
        }
      }
    };
  }

  @Override
  public Object view(String driver, Device device) {
    // jdra-cel reads fabric8's always-present empty attribute lists as "no list value".
    return DeviceInput.of(driver, device);
  }
}
