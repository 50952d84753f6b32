package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.jdra.allocator.AllocatorFeatures;
import io.jdra.cel.CelEvaluationException;
import io.jdra.cel.CompilationResult;
import io.jdra.cel.CompilerOptions;
import io.jdra.cel.DeviceInput;
import io.jdra.cel.DeviceSelectorCompiler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    return DeviceInput.of(driver, withoutEmptyLists(device));
  }

  /**
   * fabric8 initialises every list of a DeviceAttribute to an empty list, while jdra-cel reads a
   * non-null list as "this is a list attribute". Until jdra-cel checks for emptiness, hand it
   * attributes whose unused lists are null.
   */
  static Device withoutEmptyLists(Device device) {
    Map<String, DeviceAttribute> attrs = device.getAttributes();
    if (attrs == null || attrs.isEmpty()) {
      return device;
    }
    Map<String, DeviceAttribute> fixed = new LinkedHashMap<>();
    for (Map.Entry<String, DeviceAttribute> e : attrs.entrySet()) {
      DeviceAttribute a = e.getValue();
      DeviceAttribute c = new DeviceAttribute();
      c.setBool(a.getBool());
      c.setInt(a.getInt());
      c.setString(a.getString());
      c.setVersion(a.getVersion());
      c.setBools(emptyToNull(a.getBools()));
      c.setInts(emptyToNull(a.getInts()));
      c.setStrings(emptyToNull(a.getStrings()));
      c.setVersions(emptyToNull(a.getVersions()));
      fixed.put(e.getKey(), c);
    }
    Device copy = new Device();
    copy.setName(device.getName());
    copy.setAttributes(fixed);
    copy.setCapacity(device.getCapacity());
    copy.setAllowMultipleAllocations(device.getAllowMultipleAllocations());
    return copy;
  }

  private static <T> List<T> emptyToNull(List<T> l) {
    return l == null || l.isEmpty() ? null : l;
  }
}
