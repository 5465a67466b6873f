"""Places in decoded JSON, for the tests that change a file's data at one place."""
import copy


def places(value, where=()):
    """Every path into `value` (a tuple of keys and indices): a container's places
    before its own, the root's () last."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from places(v, where + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from places(v, where + (i,))
    yield where


def at(data, where):
    """The value at path `where`."""
    for k in where:
        data = data[k]
    return data


def is_container_at(data, where) -> bool:
    """Whether `where` leads through `data` to a dict or list."""
    node = data
    for k in where:
        if isinstance(node, dict) and k in node or isinstance(node, list) and (
                isinstance(k, int) and 0 <= k < len(node)):
            node = node[k]
        else:
            return False
    return isinstance(node, (dict, list))


def replaced(data, where, new):
    """A copy of `data` with the value at `where` replaced by `new`."""
    data = copy.deepcopy(data)
    if not where:
        return new
    at(data, where[:-1])[where[-1]] = new
    return data


def set_at(where, value):
    """An edit of decoded JSON in place: the value at path `where` becomes `value`."""
    def edit(data):
        at(data, where[:-1])[where[-1]] = value
    return edit


def delete_at(where):
    """An edit of decoded JSON in place: the value at path `where` is taken out."""
    def edit(data):
        del at(data, where[:-1])[where[-1]]
    return edit
