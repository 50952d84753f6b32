package io.jdra.apiserver.admission;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.api.defaulting.Defaults;
import io.jdra.api.features.FeatureGates;
import io.jdra.api.strategy.AdminAccessCheck;
import io.jdra.api.strategy.DeviceClassStrategy;
import io.jdra.api.strategy.DeviceTaintRuleStrategy;
import io.jdra.api.strategy.ResourceClaimStrategy;
import io.jdra.api.strategy.ResourceClaimTemplateStrategy;
import io.jdra.api.strategy.ResourceSliceStrategy;
import io.jdra.api.validation.FieldError;
import io.jdra.api.validation.Validation;
import io.jdra.api.validation.ValidationOptions;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Admission of the resource.k8s.io kinds with jdra-api, in upstream's order: defaults, the kind's
 * strategy (which drops fields of disabled feature gates and resets what the write may not set),
 * the admin-access namespace check, validation. Thread-safe.
 */
public final class DraAdmission implements Admission {
  private final FeatureGates gates;
  private final Clock clock;

  /** Validation that compiles new CEL selectors, as upstream's. */
  private final ValidationOptions validation;

  /** Stored claim specs decoded, for the status writes of claims (see {@link ClaimRatcheting}). */
  private final DecodedSpecs<ResourceClaimSpec> storedSpecs = new DecodedSpecs<>();

  /** Statuses that status writes stored as sent, decoded, for the claims' next status writes. */
  private final StoredStatuses storedStatuses = new StoredStatuses();

  /** What a claim create makes of the spec it is sent, by that spec. */
  private final DecodedSpecs<CreatedSpec> createdSpecs = new DecodedSpecs<>();

  /**
   * A claim spec after create's defaults and strategy, which depend on the spec (and the gates)
   * alone: decoded (only read from then on) and encoded (copied into each claim).
   */
  record CreatedSpec(ResourceClaimSpec spec, JsonNode tree) {}

  /**
   * Whether a claim update may write the stored spec and status themselves instead of copies: the
   * registry never changes a stored tree, and no later admission changes them in place.
   */
  private final boolean shareStored;

  public DraAdmission(FeatureGates gates, Clock clock) {
    this(gates, clock, false);
  }

  /**
   * An admission whose claim updates, with {@code shareStored}, write the stored spec and status
   * themselves where unchanged (for a registry that shares unchanged subtrees of stored objects and
   * an admission chain that changes those only by replacing them).
   */
  public DraAdmission(FeatureGates gates, Clock clock, boolean shareStored) {
    this.gates = gates;
    this.clock = clock;
    this.shareStored = shareStored;
    this.validation = ValidationOptions.defaults().withSelectorCompiler(new CelSelectors(gates));
  }

  /** Whether this admission handles the resource. */
  public static boolean handles(io.jdra.apiserver.registry.ResourceType t) {
    return t.group().equals("resource.k8s.io");
  }

  @Override
  public List<Cause> admit(Request r) {
    if (!handles(r.type())) {
      return List.of();
    }
    boolean create = r.operation() == Operation.CREATE;
    boolean status = r.subresource().equals("status");
    List<FieldError> errors =
        switch (r.type().kind()) {
          case "ResourceClaim" -> claim(r, create, status);
          case "ResourceClaimTemplate" -> template(r, create);
          case "DeviceClass" -> deviceClass(r, create);
          case "ResourceSlice" -> slice(r, create);
          case "DeviceTaintRule" -> taintRule(r, create, status);
          default -> List.of();
        };
    List<Cause> causes = new ArrayList<>(errors.size());
    for (FieldError e : errors) {
      causes.add(new Cause(e.type().reason(), e.errorBody(), e.field()));
    }
    return causes;
  }

  private List<FieldError> claim(Request r, boolean create, boolean status) {
    if (create) {
      return claimCreate(r);
    }
    List<FieldError> unchanged =
        status
            ? ClaimRatcheting.statusWrite(r, gates, storedSpecs, shareStored, storedStatuses)
            : ClaimRatcheting.metadataWrite(r, shareStored);
    if (unchanged != null) {
      return unchanged;
    }
    return claimDecoded(r, false, status);
  }

  /**
   * A claim create: on the whole decoded claim the first time a spec is seen, then, for the next
   * claims with that spec (a template's claims), on the claim without its spec, with the spec as
   * the first create made it. The results are those of {@link #claimDecoded} ({@code
   * DraAdmissionCreateTest} compares the two).
   */
  List<FieldError> claimCreate(Request r) {
    ObjectNode obj = r.object();
    if (!(obj.get("spec") instanceof ObjectNode sent)) {
      return claimDecoded(r, true, false);
    }
    CreatedSpec known = createdSpecs.find(sent);
    if (known == null) {
      ResourceClaim c = read(obj, ResourceClaim.class);
      List<FieldError> errs = createDecoded(r, c);
      if (errs.isEmpty() && obj.get("spec") instanceof ObjectNode made) {
        // the spec model is no one else's: it is only read from now on
        // kept as parsing its serialization gives it (the encoder writes counts as longs, the
        // parser reads ints): the claims that take it then parse back alike, and the registry
        // shares their trees with their next writes instead of copying them
        createdSpecs.put(sent, new CreatedSpec(c.getSpec(), Json.parseObject(Json.bytes(made))));
      }
      return errs;
    }
    ObjectNode rest = Json.object();
    for (Map.Entry<String, JsonNode> e : obj.properties()) {
      if (!e.getKey().equals("spec")) {
        rest.set(e.getKey(), e.getValue());
      }
    }
    ResourceClaim c =
        TreeReads.orJackson(MetaTrees.claim(rest), () -> read(rest, ResourceClaim.class));
    // Defaults and the create strategy of everything but the spec; the spec is the known one.
    c = ResourceClaimStrategy.prepareForCreateInPlace(Defaults.resourceClaimInPlace(c), gates);
    c.setSpec(known.spec());
    List<FieldError> errs =
        new ArrayList<>(AdminAccessCheck.resourceClaim(c, r.namespaceLabels().apply(ns(c))));
    // the spec's rules passed on this very spec when the first create made it
    errs.addAll(Validation.validateResourceClaimMetadata(c));
    // The known tree is never changed: with shareStored every claim of the spec shares it, as
    // nothing after admission changes a claim's spec in place.
    obj.set("spec", shareStored ? known.tree() : known.tree().deepCopy());
    writeStatus(obj, c.getStatus());
    return errs;
  }

  /**
   * The tree of the status every create starts with (the strategy's new, empty status), and of
   * every status a release empties.
   */
  private static final JsonNode CREATED_STATUS = Json.MAPPER.valueToTree(new ResourceClaimStatus());

  /**
   * Writes a claim's status: a copy of {@link #CREATED_STATUS} for a status equal to the empty one
   * (every create's, as the strategy resets it), instead of encoding it; else encoded, as {@link
   * #createDecoded} and {@link #claimDecoded} write every status ({@code DraAdmissionCreateTest}
   * and {@code ClaimRatchetingTest} compare them).
   */
  static void writeStatus(ObjectNode obj, ResourceClaimStatus status) {
    if (status != null && status.equals(new ResourceClaimStatus())) {
      obj.set("status", CREATED_STATUS.deepCopy());
    } else {
      writeField(obj, "status", status);
    }
  }

  /** Admission of a claim write on the whole decoded claim: what every write could need. */
  List<FieldError> claimDecoded(Request r, boolean create, boolean status) {
    ResourceClaim c = read(r.object(), ResourceClaim.class);
    List<FieldError> errs = new ArrayList<>();
    if (create) {
      return createDecoded(r, c);
    } else {
      // Both claims were just decoded and are ours alone: prepare without deep copies.
      ResourceClaim old = read(r.oldObject(), ResourceClaim.class);
      if (status) {
        c = ResourceClaimStrategy.prepareForStatusUpdateInPlace(c, old, gates);
        errs.addAll(
            AdminAccessCheck.resourceClaimStatusUpdate(c, old, r.namespaceLabels().apply(ns(c))));
        errs.addAll(Validation.validateResourceClaimStatusUpdate(c, old));
      } else {
        c =
            ResourceClaimStrategy.prepareForUpdateInPlace(
                Defaults.resourceClaimInPlace(c), old, gates);
        errs.addAll(Validation.validateResourceClaimUpdate(c, old));
      }
    }
    write(r.object(), c);
    return errs;
  }

  /** How many specs {@link #claimCreate} knows (for tests). */
  int knownCreatedSpecs() {
    return createdSpecs.size();
  }

  /** Admission of a claim create on the decoded claim {@code c}, which it changes. */
  private List<FieldError> createDecoded(Request r, ResourceClaim c) {
    // The decoded claim is ours alone: default and prepare it without deep copies.
    c = ResourceClaimStrategy.prepareForCreateInPlace(Defaults.resourceClaimInPlace(c), gates);
    List<FieldError> errs =
        new ArrayList<>(AdminAccessCheck.resourceClaim(c, r.namespaceLabels().apply(ns(c))));
    errs.addAll(Validation.validateResourceClaim(c, validation));
    // Defaults and the create strategy change only spec and status: write back just those.
    writeField(r.object(), "spec", c.getSpec());
    writeField(r.object(), "status", c.getStatus());
    return errs;
  }

  private List<FieldError> template(Request r, boolean create) {
    ResourceClaimTemplate t =
        Defaults.resourceClaimTemplate(read(r.object(), ResourceClaimTemplate.class));
    List<FieldError> errs = new ArrayList<>();
    if (create) {
      t = ResourceClaimTemplateStrategy.prepareForCreate(t, gates);
      errs.addAll(AdminAccessCheck.resourceClaimTemplate(t, r.namespaceLabels().apply(ns(t))));
      errs.addAll(Validation.validateResourceClaimTemplate(t, validation));
    } else {
      ResourceClaimTemplate old = read(r.oldObject(), ResourceClaimTemplate.class);
      t = ResourceClaimTemplateStrategy.prepareForUpdate(t, old, gates);
      errs.addAll(Validation.validateResourceClaimTemplateUpdate(t, old));
    }
    write(r.object(), t);
    return errs;
  }

  private List<FieldError> deviceClass(Request r, boolean create) {
    DeviceClass d = Defaults.deviceClass(read(r.object(), DeviceClass.class));
    List<FieldError> errs;
    if (create) {
      d = DeviceClassStrategy.prepareForCreate(d, gates);
      errs = Validation.validateDeviceClass(d, validation);
    } else {
      DeviceClass old = read(r.oldObject(), DeviceClass.class);
      d = DeviceClassStrategy.prepareForUpdate(d, old, gates);
      errs = Validation.validateDeviceClassUpdate(d, old, validation);
    }
    write(r.object(), d);
    return errs;
  }

  private List<FieldError> slice(Request r, boolean create) {
    ResourceSlice s =
        Defaults.resourceSlice(read(r.object(), ResourceSlice.class), clock.instant());
    List<FieldError> errs;
    if (create) {
      s = ResourceSliceStrategy.prepareForCreate(s, gates);
      errs = Validation.validateResourceSlice(s);
    } else {
      ResourceSlice old = read(r.oldObject(), ResourceSlice.class);
      s = ResourceSliceStrategy.prepareForUpdate(s, old, gates);
      errs = Validation.validateResourceSliceUpdate(s, old);
    }
    write(r.object(), s);
    return errs;
  }

  private List<FieldError> taintRule(Request r, boolean create, boolean status) {
    DeviceTaintRule d = read(r.object(), DeviceTaintRule.class);
    List<FieldError> errs;
    if (create) {
      d = DeviceTaintRuleStrategy.prepareForCreate(Defaults.deviceTaintRule(d, clock.instant()));
      errs = Validation.validateDeviceTaintRule(d);
    } else {
      DeviceTaintRule old = read(r.oldObject(), DeviceTaintRule.class);
      if (status) {
        d = DeviceTaintRuleStrategy.prepareForStatusUpdate(d, old);
        errs = Validation.validateDeviceTaintRuleStatusUpdate(d, old);
      } else {
        d = Defaults.deviceTaintRule(d, clock.instant());
        d = DeviceTaintRuleStrategy.prepareForUpdate(d, old, clock.instant());
        errs = Validation.validateDeviceTaintRuleUpdate(d, old);
      }
    }
    write(r.object(), d);
    return errs;
  }

  private static String ns(io.fabric8.kubernetes.api.model.HasMetadata o) {
    return o.getMetadata() == null ? "" : o.getMetadata().getNamespace();
  }

  static <T> T read(ObjectNode node, Class<T> type) {
    try {
      return Json.treeToValue(node, type);
    } catch (JacksonException e) {
      throw ApiException.badRequest(
          type.getSimpleName()
              + " in version \"v1\" cannot be handled as a "
              + type.getSimpleName()
              + ": "
              + e.getOriginalMessage());
    }
  }

  static void writeField(ObjectNode target, String field, Object value) {
    if (value == null) {
      target.remove(field);
    } else {
      target.set(field, Json.MAPPER.valueToTree(value));
    }
  }

  /** Replaces the request's tree with the model's, keeping the tree object identity. */
  private static void write(ObjectNode target, Object model) {
    ObjectNode n = Json.MAPPER.valueToTree(model);
    target.removeAll();
    target.setAll(n);
  }
}
