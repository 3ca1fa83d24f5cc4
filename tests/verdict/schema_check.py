"""The required fields of SARIF 2.1.0 and JUnit XML. sarif(): what the OASIS schema
marks `required` (and the enums and minimums of the fields we write), by hand;
sarif_schema(): the whole schema, tests/verdict/sarif-schema-2.1.0.json (vendored: see
sarif-schema-2.1.0.md), through Debian's python3-jsonschema; github(): what GitHub code
scanning requires beyond the schema (its upload rejects a file without them); junit():
what the Ant/Jenkins JUnit schema (junit.xsd) marks use="required". Each returns a list
of problems.
"""
import json
import re
from pathlib import Path
from urllib.parse import urlparse

URI_BASE_ID = re.compile(r"^[A-Za-z_][\w-]*$")


def sarif(log) -> list:
    bad = []
    need = lambda obj, keys, where: bad.extend(
        f"{where}: no '{k}'" for k in keys if not isinstance(obj, dict) or k not in obj)
    need(log, ["version", "runs"], "sarifLog")
    if log.get("version") != "2.1.0":
        bad.append(f"sarifLog: version {log.get('version')!r}, not '2.1.0'")
    if not isinstance(log.get("runs"), list):
        return bad + ["sarifLog: runs is not an array"]
    for r, run in enumerate(log["runs"]):
        w = f"runs[{r}]"
        need(run, ["tool"], w)
        need(run.get("tool", {}), ["driver"], w + ".tool")
        drv = run.get("tool", {}).get("driver", {})
        need(drv, ["name"], w + ".tool.driver")
        rules = drv.get("rules", [])
        for i, rule in enumerate(rules):
            need(rule, ["id"], f"{w}.rules[{i}]")
            if "shortDescription" in rule:
                need(rule["shortDescription"], ["text"], f"{w}.rules[{i}].shortDescription")
        # (SARIF 3.14.14: a base's uri may be absent, as where a machine's path is left out)
        for k, base in run.get("originalUriBaseIds", {}).items():
            if not URI_BASE_ID.match(k) or not str(base.get("uri", "/")).endswith("/"):
                bad.append(f"{w}.originalUriBaseIds[{k}]: uri must end with '/'")
        for i, res in enumerate(run.get("results", [])):
            rw = f"{w}.results[{i}]"
            need(res, ["message"], rw)
            msg = res.get("message", {})
            if not ("text" in msg or "id" in msg):
                bad.append(f"{rw}.message: neither text nor id")
            if res.get("level", "warning") not in ("none", "note", "warning", "error"):
                bad.append(f"{rw}.level: {res['level']!r}")
            ri = res.get("ruleIndex", -1)
            if not isinstance(ri, int) or ri < -1 or ri >= len(rules):
                bad.append(f"{rw}.ruleIndex: {ri!r}")
            elif ri >= 0 and rules[ri].get("id") != res.get("ruleId"):
                bad.append(f"{rw}: ruleId {res.get('ruleId')!r} is not rules[{ri}]")
            for key in ("locations", "relatedLocations"):
                for j, loc in enumerate(res.get(key, [])):
                    lw = f"{rw}.{key}[{j}]"
                    if "id" in loc and (not isinstance(loc["id"], int) or loc["id"] < -1):
                        bad.append(f"{lw}.id: {loc['id']!r}")
                    if "message" in loc and "text" not in loc["message"]:
                        bad.append(f"{lw}.message: no text")
                    pl = loc.get("physicalLocation")
                    if pl is None:
                        continue
                    if "artifactLocation" not in pl and "address" not in pl:
                        bad.append(f"{lw}.physicalLocation: no artifactLocation or address")
                    al = pl.get("artifactLocation", {})
                    if "uri" in al and (not al["uri"] or " " in al["uri"]):
                        bad.append(f"{lw}: uri {al['uri']!r} is not a uri-reference")
                    if "uriBaseId" in al and al["uriBaseId"] not in run.get(
                            "originalUriBaseIds", {}):
                        bad.append(f"{lw}: uriBaseId {al['uriBaseId']!r} is not defined")
                    sl = pl.get("region", {}).get("startLine", 1)
                    if not isinstance(sl, int) or sl < 1:
                        bad.append(f"{lw}.region.startLine: {sl!r}")
    return bad


SCHEMA = Path(__file__).resolve().parent / "sarif-schema-2.1.0.json"


def sarif_schema(log) -> list:
    """Every violation of the SARIF 2.1.0 JSON schema (draft 2020-12), formats included."""
    import jsonschema  # Debian's python3-jsonschema (ci/lib.sh installs it)
    schema = json.loads(SCHEMA.read_text())
    v = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    return [f"schema: {'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:200]}"
            for e in v.iter_errors(log)]


def github(log) -> list:
    """GitHub code scanning's rules for an uploaded SARIF file (its documentation's
    required properties, and the SARIF Multitool's GH rules): a driver with name, version
    and informationUri; rules with id, a name unlike it, shortDescription, fullDescription
    and help; each result with a known ruleId, message text and 1 to 10 locations, each a
    physicalLocation with a relative uri (its uriBaseId, if any, defined) or a file:// one
    and region.startLine; at most 20 runs and 25,000 results a run."""
    bad = []
    text = lambda o, k: isinstance(o, dict) and isinstance(o.get(k), dict) and \
        isinstance(o[k].get("text"), str) and o[k]["text"].strip() != ""
    runs = log.get("runs", []) if isinstance(log, dict) else []
    if len(runs) > 20:
        bad.append(f"{len(runs)} runs (GitHub takes 20)")
    for r, run in enumerate(runs):
        w = f"runs[{r}]"
        drv = run.get("tool", {}).get("driver", {})
        for k in ("name", "informationUri"):
            if not drv.get(k):
                bad.append(f"{w}.tool.driver: no {k}")
        if not (drv.get("version") or drv.get("semanticVersion")):
            bad.append(f"{w}.tool.driver: no version")
        ids = set()
        for i, rule in enumerate(drv.get("rules", [])):
            rw = f"{w}.tool.driver.rules[{i}]"
            ids.add(rule.get("id"))
            if not rule.get("id"):
                bad.append(f"{rw}: no id")
            if str(rule.get("name", "")).lower() == str(rule.get("id")).lower():
                bad.append(f"{rw}: name {rule.get('name')!r} is its id")
            for k in ("shortDescription", "fullDescription", "help"):
                if not text(rule, k):
                    bad.append(f"{rw}: no {k}.text")
        bases = run.get("originalUriBaseIds", {})
        results = run.get("results", [])
        if len(results) > 25000:
            bad.append(f"{w}: {len(results)} results (GitHub takes 25,000)")
        for i, res in enumerate(results):
            rw = f"{w}.results[{i}]"
            if res.get("ruleId") not in ids:
                bad.append(f"{rw}: ruleId {res.get('ruleId')!r} is no rule of the driver")
            if not text(res, "message"):
                bad.append(f"{rw}: no message.text")
            locs = res.get("locations", [])
            if not 1 <= len(locs) <= 10:
                bad.append(f"{rw}: {len(locs)} locations (GitHub needs 1 to 10)")
            for key, need_line in (("locations", True), ("relatedLocations", False)):
                for j, loc in enumerate(res.get(key, [])):
                    lw = f"{rw}.{key}[{j}]"
                    al = loc.get("physicalLocation", {}).get("artifactLocation", {})
                    uri = al.get("uri", "")
                    scheme = urlparse(uri).scheme
                    if not uri:
                        bad.append(f"{lw}: no physicalLocation.artifactLocation.uri")
                    elif scheme not in ("", "file"):
                        bad.append(f"{lw}: uri {uri!r} is neither relative nor file://")
                    elif "uriBaseId" in al and al["uriBaseId"] not in bases:
                        bad.append(f"{lw}: uriBaseId {al['uriBaseId']!r} is not defined")
                    sl = loc.get("physicalLocation", {}).get("region", {}).get("startLine")
                    if need_line and (not isinstance(sl, int) or sl < 1):
                        bad.append(f"{lw}: no region.startLine")
    return bad


# junit.xsd (Ant, as Jenkins reads it): required attributes per element.
JUNIT_REQUIRED = {
    "testsuite": ["name", "tests", "failures", "errors", "time", "timestamp", "hostname"],
    "testcase": ["name", "classname", "time"],
    "failure": ["type"],
}


def junit(root) -> list:
    bad = []
    suites = [root] if root.tag == "testsuite" else list(root)
    if root.tag not in ("testsuite", "testsuites"):
        return [f"root element <{root.tag}>, not <testsuites> or <testsuite>"]
    for s in suites:
        if s.tag != "testsuite":
            bad.append(f"<{s.tag}> inside <testsuites>")
            continue
        for el in s.iter():
            for a in JUNIT_REQUIRED.get(el.tag, []):
                if el.get(a) is None:
                    bad.append(f"<{el.tag} name={el.get('name')!r}>: no attribute '{a}'")
        cases = s.findall("testcase")
        for c in cases:  # junit.xsd: a testcase's choice of one <error> or <failure>
            if len(c.findall("failure")) + len(c.findall("error")) > 1:
                bad.append(f"<testcase name={c.get('name')!r}>: more than one <failure>/<error>")
        for a, n in (("tests", len(cases)),
                     ("failures", sum(c.find("failure") is not None for c in cases)),
                     ("skipped", sum(c.find("skipped") is not None for c in cases))):
            if s.get(a) is not None and s.get(a) != str(n):
                bad.append(f"<testsuite name={s.get('name')!r}>: {a}={s.get(a)}, counted {n}")
        for x in ("time",):
            try:
                float(s.get(x, "0"))
            except ValueError:
                bad.append(f"<testsuite>: {x} is not a number")
    return bad
