window.YTD.account.part0 = [
  {
    "account": {
      "email": "sunny@example.com",
      "createdVia": "web",
      "username": "sunnydays",
      "accountId": "9000000001",
      "createdAt": "2015-03-14T09:26:53.000Z",
      "accountDisplayName": "Sunny Days (made up)"
    }
  }
]
