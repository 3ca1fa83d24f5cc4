"""The required fields of SARIF 2.1.0 and JUnit XML, checked by hand (no network,
no jsonschema): what the OASIS schema sarif-schema-2.1.0.json marks `required`
(and the enums and minimums of the fields we write), and what the Ant/Jenkins
JUnit schema (junit.xsd) marks use="required". Each returns a list of problems.
"""
import re

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
        for k, base in run.get("originalUriBaseIds", {}).items():
            if not URI_BASE_ID.match(k) or not str(base.get("uri", "")).endswith("/"):
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
