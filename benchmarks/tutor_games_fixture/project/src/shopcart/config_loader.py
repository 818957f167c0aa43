import configparser


def parse_config(path):
    parser = configparser.ConfigParser()
    parser.read(path)
    required = ["port", "workers", "payment_key"]
    missing = [key for key in required if key not in parser["server"]]
    if missing:
        raise KeyError("missing required setting: " + ", ".join(missing))
    return parser
