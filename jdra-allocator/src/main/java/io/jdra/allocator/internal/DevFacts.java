package io.jdra.allocator.internal;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.api.names.DeviceId;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What stays true of a device while its slices do not change: its place, its CEL view and the
 * results of the selectors evaluated on it so far. Shared by every allocation that sees the same
 * slices (see {@link Slices}), so a class selector runs once per device, not once per device and
 * pod. Thread-safe.
 */
final class DevFacts {
  final DeviceId id;
  final Device device;
  final ResourceSlice slice;
  final PoolInfo pool;
  final boolean allowMultipleAllocations;

  /**
   * What {@link Results#check} needs of the device: 0 when it is local to its node (or binds to
   * it), which ends the check; the number of terms of its node selector when more than one; else
   * -1.
   */
  final int nodeSelectorCheck;

  /**
   * The device's taints (DeviceTaintRules applied), or null when it has none: asked for every
   * device a search picks, and most devices have none.
   */
  final List<DeviceTaint> taints;

  /** Whether the device consumes shared counters (asked for every candidate of every search). */
  private final boolean consumesCounters;

  private volatile Object view;
  private volatile Capacity.Fit fitsWhenUnused;
  private volatile Map<String, Map<String, BigDecimal>> counterConsumption;
  private final Attributes.Interner interner;

  /** The attributes constraints asked for, newest first, at most {@link #ATTRIBUTES_KEPT}. */
  private volatile Attribute[] attributes = NO_ATTRIBUTES;

  private static final Attribute[] NO_ATTRIBUTES = new Attribute[0];

  /** A claim's constraints name one or two attributes; a few more cover mixed claims. */
  static final int ATTRIBUTES_KEPT = 4;

  /**
   * A constraint's attribute on the device, by the name the constraint gives, with its values
   * canonical in the device's slice snapshot (see {@link Attributes.Interner}). Immutable.
   *
   * @param value the attribute, or null when the device lacks it
   * @param scalar {@link Attributes#scalar} of it, or null
   * @param values {@link Attributes#asSet} of it (immutable), or null
   */
  record Attribute(String name, DeviceAttribute value, Object scalar, Set<Object> values) {}

  /**
   * Results kept per device: class selectors and the selectors of repeated claim templates fit; a
   * stream of one-off claim expressions must not grow the map without bound.
   */
  static final int MAX_REMEMBERED = 32;

  /** Expression -> Boolean result, or the String message of its runtime error. */
  private final ConcurrentHashMap<String, Object> selectorResults = new ConcurrentHashMap<>(4);

  DevFacts(
      DeviceId id,
      Device device,
      ResourceSlice slice,
      PoolInfo pool,
      Attributes.Interner interner) {
    this.id = id;
    this.interner = interner;
    this.device = device;
    this.slice = slice;
    this.pool = pool;
    this.allowMultipleAllocations = Boolean.TRUE.equals(device.getAllowMultipleAllocations());
    this.nodeSelectorCheck = nodeSelectorCheck(device, slice);
    this.consumesCounters =
        device.getConsumesCounters() != null && !device.getConsumesCounters().isEmpty();
    this.taints =
        device.getTaints() == null || device.getTaints().isEmpty() ? null : device.getTaints();
  }

  private static int nodeSelectorCheck(Device device, ResourceSlice slice) {
    boolean perDevice = Boolean.TRUE.equals(slice.getSpec().getPerDeviceNodeSelection());
    String name = perDevice ? device.getNodeName() : slice.getSpec().getNodeName();
    if (name != null || Boolean.TRUE.equals(device.getBindsToNode())) {
      return 0;
    }
    NodeSelector sel = perDevice ? device.getNodeSelector() : slice.getSpec().getNodeSelector();
    if (sel != null
        && sel.getNodeSelectorTerms() != null
        && sel.getNodeSelectorTerms().size() > 1) {
      return sel.getNodeSelectorTerms().size();
    }
    return -1;
  }

  /**
   * The attribute {@code qualifiedName} names (see {@link Attributes#lookup}), remembered for the
   * last few names asked: a claim's constraints name one or two attributes, asked of the same
   * devices again and again as the search backtracks, and of every pod's search.
   */
  Attribute attribute(String qualifiedName) {
    Attribute[] known = attributes;
    for (Attribute a : known) {
      if (a.name().equals(qualifiedName)) {
        return a;
      }
    }
    DeviceAttribute v = Attributes.lookupIn(device, id.driver(), qualifiedName);
    Attribute a =
        v == null
            ? new Attribute(qualifiedName, null, null, null)
            : new Attribute(
                qualifiedName, v, interner.intern(Attributes.scalar(v)), interner.asSet(v));
    // Copied, never changed: a racing thread reads an older or a newer array, each consistent.
    Attribute[] next = new Attribute[Math.min(known.length + 1, ATTRIBUTES_KEPT)];
    next[0] = a;
    System.arraycopy(known, 0, next, 1, next.length - 1);
    attributes = next;
    return a;
  }

  Object view(SelectorEngine engine) {
    Object v = view;
    if (v == null) {
      // Views are immutable; two threads racing here build equal ones.
      v = engine.view(id.driver(), device);
      view = v;
    }
    return v;
  }

  /**
   * The result of a selector on this device: evaluated once with {@code compiled}, then remembered
   * (CEL is deterministic for a given device and expression, runtime errors included).
   */
  boolean matches(String expression, SelectorEngine.Compiled compiled, SelectorEngine engine)
      throws SelectorEngine.EvaluationException {
    Object known = selectorResults.get(expression);
    if (known == null) {
      try {
        known = compiled.matches(view(engine));
      } catch (SelectorEngine.EvaluationException e) {
        remember(expression, e.getMessage());
        throw e;
      }
      remember(expression, known);
    }
    if (known instanceof String error) {
      throw new SelectorEngine.EvaluationException(error);
    }
    return (Boolean) known;
  }

  /**
   * Whether a request without capacity requirements fits while nothing else uses the device: the
   * device's own policies decide (upstream {@code CmpRequestOverCapacity}), so once per device.
   */
  Capacity.Fit fitsWhenUnused() {
    Capacity.Fit f = fitsWhenUnused;
    if (f == null) {
      f = Capacity.fits(null, null, device.getCapacity(), null);
      fitsWhenUnused = f;
    }
    return f;
  }

  boolean consumesCounters() {
    return consumesCounters;
  }

  /** {@link Counters#consumption} of the device, parsed once (on first use, as before). */
  Map<String, Map<String, BigDecimal>> counterConsumption() {
    Map<String, Map<String, BigDecimal>> c = counterConsumption;
    if (c == null) {
      c = Counters.consumption(device);
      counterConsumption = c;
    }
    return c;
  }

  private void remember(String expression, Object result) {
    if (selectorResults.size() < MAX_REMEMBERED) {
      selectorResults.put(expression, result);
    }
  }

  /**
   * The remembered result of this expression: a Boolean, the String message of its runtime error,
   * or null when not known (then it must be compiled and {@link #matches} asked).
   */
  Object known(String expression) {
    return selectorResults.get(expression);
  }
}
