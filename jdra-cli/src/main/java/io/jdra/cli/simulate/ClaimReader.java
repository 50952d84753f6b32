package io.jdra.cli.simulate;

import io.fabric8.kubernetes.api.model.resource.v1.CELDeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.jdra.api.defaulting.Defaults;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.Validation;
import io.jdra.api.validation.ValidationOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A pod template's claim: the short form (one request named after the claim) or a full
 * ResourceClaimSpec, defaulted and validated as the API server does when the claim is created, with
 * the API server's messages under the scenario's paths.
 */
final class ClaimReader {
  static final ValidationOptions VALIDATION =
      ValidationOptions.defaults().withSelectorCompiler(new CelCheck(FeatureGates.defaults()));

  private final Fields f;

  ClaimReader(Fields f) {
    this.f = f;
  }

  Scenario.Claim claim(JsonNode n, String path, String pod, Set<String> classNames) {
    if (!f.isObject(n, path)) {
      return null;
    }
    f.fields(n, path, "name", "deviceClassName", "count", "allocationMode", "selectors", "spec");
    String name = f.string(n, "name", path, null);
    if (name == null) {
      f.problem(path + ".name", "required");
      return null;
    }
    f.checkName(name, path + ".name");
    ResourceClaimSpec spec;
    boolean shortForm = !n.has("spec");
    if (shortForm) {
      spec = shortSpec(n, path, name, classNames);
    } else {
      for (String field : List.of("deviceClassName", "count", "allocationMode", "selectors")) {
        if (n.has(field)) {
          f.problem(path + "." + field, "not allowed together with spec");
        }
      }
      try {
        spec = Serialization.unmarshal(n.get("spec").toString(), ResourceClaimSpec.class);
      } catch (RuntimeException e) {
        f.problem(path + ".spec", "not a ResourceClaimSpec: " + e.getMessage());
        return null;
      }
    }
    if (spec == null) {
      return null;
    }
    ResourceClaim claim =
        Defaults.resourceClaim(
            new ResourceClaimBuilder()
                .withNewMetadata()
                .withName(pod + "-" + name)
                .withNamespace("default")
                .endMetadata()
                .withSpec(spec)
                .build());
    for (FieldError e : Validation.validateResourceClaim(claim, VALIDATION)) {
      f.problem(path + "." + (shortForm ? shortPath(e.field()) : e.field()), body(e));
    }
    if (claim.getSpec().getDevices() != null) {
      for (DeviceRequest r : claim.getSpec().getDevices().getRequests()) {
        checkClass(r, path, shortForm, classNames);
      }
    }
    return new Scenario.Claim(name, claim.getSpec());
  }

  private void checkClass(DeviceRequest r, String path, boolean shortForm, Set<String> known) {
    List<String> used = new ArrayList<>();
    if (r.getExactly() != null) {
      used.add(r.getExactly().getDeviceClassName());
    }
    if (r.getFirstAvailable() != null) {
      r.getFirstAvailable().forEach(s -> used.add(s.getDeviceClassName()));
    }
    for (String c : used) {
      if (c != null && !c.isEmpty() && !known.contains(c)) {
        f.problem(
            path + (shortForm ? ".deviceClassName" : ".spec"),
            "DeviceClass \"" + c + "\" is not in the cluster (known: " + known + ")");
      }
    }
  }

  private ResourceClaimSpec shortSpec(
      JsonNode n, String path, String name, Set<String> classNames) {
    String cls = f.string(n, "deviceClassName", path, null);
    if (cls == null) {
      f.problem(path + ".deviceClassName", "required (or give a full spec)");
      return null;
    }
    ExactDeviceRequest ex = new ExactDeviceRequest();
    ex.setDeviceClassName(cls);
    String mode = f.string(n, "allocationMode", path, "ExactCount");
    ex.setAllocationMode(mode);
    if (n.has("count")) {
      if (mode.equals("All")) {
        f.problem(path + ".count", "not allowed with allocationMode All");
      }
      ex.setCount(f.integer(n, "count", path, 1, 1));
    }
    JsonNode sel = f.array(n, "selectors", path, false);
    List<DeviceSelector> selectors = new ArrayList<>();
    for (int i = 0; sel != null && i < sel.size(); i++) {
      DeviceSelector s = new DeviceSelector();
      s.setCel(new CELDeviceSelector(sel.get(i).asString()));
      selectors.add(s);
    }
    ex.setSelectors(selectors);
    DeviceRequest r = new DeviceRequest();
    r.setName(name);
    r.setExactly(ex);
    ResourceClaimSpec spec = new ResourceClaimSpec();
    spec.setDevices(new DeviceClaim());
    spec.getDevices().setRequests(List.of(r));
    return spec;
  }

  /** The API server's path of a short-form claim's field, as the scenario names it. */
  static String shortPath(String apiPath) {
    return apiPath
        .replaceFirst("^spec\\.devices\\.requests\\[0\\]\\.exactly\\.", "")
        .replaceFirst("^spec\\.devices\\.requests\\[0\\]\\.name", "name")
        .replaceFirst("^(selectors\\[\\d+\\])\\.cel\\.expression", "$1");
  }

  /** The error without its field: {@code Invalid value: 0: must be greater than zero}. */
  static String body(FieldError e) {
    String s = e.toString();
    return s.startsWith(e.field() + ": ") ? s.substring(e.field().length() + 2) : s;
  }
}
